import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * Issue 18, in the browser: a hospital pushes a report for the demo patient (FHIR, the demo key) and
 * 我的消息 → 报告通知 shows it unread, naming the hospital and the exam, never the conclusion; its 查看
 * opens the report. The patient shares an exam with the demo expert's account: the expert's 授权提醒
 * opens the shared records, and after 撤销 the same 查看 says 授权已失效.
 */

const PATIENT = { mobile: '13800000001', password: 'demo1234' }
const EXPERT = { mobile: '13900000002', password: 'demo1234' }
// The demo patient's synthetic identity (README, Demo accounts).
const DEMO_ID = '11010119900307002X'
const DEMO_NAME = '演示患者'
const HOSPITAL = '示例市第一人民医院'
const CONCLUSION = '右肾小结石（演示）。'

interface Envelope<T> {
  data: T
}

async function api<T>(token: string, url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${BASE_URL}${url}`, {
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(init.headers ?? {}),
    },
  })
  assert.ok(response.ok, `${url}: ${response.status} ${await response.clone().text()}`)
  return ((await response.json()) as Envelope<T>).data
}

/** A report as a hospital's RIS sends it, for an exam no other test knows. */
function report(codeText: string): Record<string, unknown> {
  const uid = `1.2.826.0.1.3680043.8.498.${Date.now()}.${process.pid}`
  return {
    resourceType: 'DiagnosticReport',
    contained: [
      {
        resourceType: 'Patient',
        id: 'pat',
        identifier: [{ system: 'urn:oid:2.16.156.10011.1.1', value: DEMO_ID }],
        name: [{ text: DEMO_NAME }],
      },
    ],
    identifier: [{ system: 'http://hospital.example/report-id', value: `E2E-${randomUUID()}` }],
    status: 'final',
    code: { text: codeText },
    subject: { reference: '#pat' },
    // Older than every demo exam: 我的影像 previews a hospital's three newest, and the sharing
    // files after this one look for the demo MR among them.
    effectiveDateTime: '2025-03-12T09:30:00+08:00',
    issued: '2025-03-12T10:05:00+08:00',
    imagingStudy: [{ identifier: { system: 'urn:dicom:uid', value: `urn:oid:${uid}` } }],
    conclusion: CONCLUSION,
  }
}

describe('notifications in 我的消息', () => {
  let patient: Phone
  let expert: Phone
  let patientToken = ''
  const codeText = `腹部 CT 平扫（演示 ${Date.now() % 100000}）`
  let reportId = ''

  before(async () => {
    patient = await openPhone()
    expert = await openPhone()
    patientToken = await signIn(patient, PATIENT)
    await signIn(expert, EXPERT)
    const pushed = await fetch(`${BASE_URL}/fhir/DiagnosticReport`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer demo-hospital-key',
        'content-type': 'application/fhir+json',
        accept: 'application/fhir+json',
      },
      body: JSON.stringify(report(codeText)),
    })
    assert.equal(pushed.status, 201, await pushed.clone().text())
    reportId = ((await pushed.json()) as { id: string }).id
  })
  after(async () => {
    await patient.close()
    await expert.close()
  })

  it('报告通知 lists the new report unread, and 查看 opens it', async () => {
    const { page } = patient
    await page.goto(`${BASE_URL}/pages/msg/list`)
    await view(page).locator('.tab-strip__tab', { hasText: '报告通知' }).click()
    const item = view(page).locator('.messages__item', { hasText: codeText })
    await item.waitFor()
    const text = await item.innerText()
    assert.match(text, /新报告已出具/)
    assert.match(text, new RegExp(HOSPITAL))
    assert.ok(!text.includes(CONCLUSION), 'the message does not carry the conclusion')
    assert.equal(await item.locator('.messages__dot').count(), 1, 'unread')
    await screenshot(page, 'notifications-report-list')

    await item.locator('.messages__main').click()
    await view(page).locator('.message-detail__title', { hasText: '新报告已出具' }).waitFor()
    await screenshot(page, 'notifications-report-message')
    await view(page).locator('.message-detail__open', { hasText: '查看' }).click()
    await page.waitForURL((url) => url.pathname === '/pages/personalReport/detail')
    assert.equal(new URL(page.url()).searchParams.get('id'), reportId)
    await view(page).getByText(CONCLUSION).first().waitFor()
    await screenshot(page, 'notifications-report-opened')
  })

  it('a grant to the expert is a 授权提醒 whose 查看 opens the records, then says 授权已失效', async () => {
    const exam = (await api<{ examId: string }>(patientToken, `/main/reports/${reportId}`)).examId
    const made = await api<{ grant: { id: string } }>(patientToken, '/main/grants', {
      method: 'POST',
      body: JSON.stringify({
        audience: 'account',
        mobile: EXPERT.mobile,
        examIds: [exam],
        reportIds: [reportId],
        duration: '1h',
      }),
    })
    const { page } = expert
    await page.goto(`${BASE_URL}/pages/msg/list`)
    await view(page).locator('.tab-strip__tab', { hasText: '授权提醒' }).click()
    // The newest first: this grant's message names the exam just pushed.
    const item = view(page)
      .locator('.messages__item', { hasText: '您收到一份授权' })
      .filter({ hasText: codeText })
      .first()
    await item.waitFor()
    await screenshot(page, 'notifications-grant-list')
    await item.locator('.messages__main').click()
    await view(page).locator('.message-detail__open', { hasText: '查看' }).click()
    await page.waitForURL((url) => url.pathname === '/pages/share/share')
    assert.equal(new URL(page.url()).searchParams.get('grantId'), made.grant.id)
    await view(page).locator('.shared-records__item', { hasText: codeText }).first().waitFor()
    await screenshot(page, 'notifications-grant-opened')

    await api(patientToken, `/main/grants/${made.grant.id}`, { method: 'DELETE' })
    await page.goBack()
    await view(page).locator('.message-detail__open', { hasText: '查看' }).click()
    await view(page).locator('.share-ended__title', { hasText: '授权已失效' }).waitFor()
    assert.equal(await view(page).locator('.shared-records__item').count(), 0)
    await screenshot(page, 'notifications-grant-ended')
  })

  it('showed no unexpected errors', () => {
    assert.deepEqual(patient.errors, [])
    // The ended grant's read is answered 403 (the response, and the browser's console line for
    // it), which the page shows as 授权已失效.
    assert.deepEqual(
      expert.errors.filter(
        (error) => !/^403 .*\/main\/shared\//.test(error) && !/status of 403/.test(error),
      ),
      [],
    )
  })
})
