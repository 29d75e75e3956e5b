import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * The holder's side of sharing (issue 9), in two browsers: the demo patient makes a link with
 * 提取码 for 24 小时 (through the API here: the owner's pages are e2e/sharing-owner.test.ts); a
 * visitor without an account opens it, is refused a wrong code in Chinese, sees the records, the
 * exam with the watermark and the sharer banner, and the viewer; the patient revokes and the
 * visitor's next read is the full-page 授权已失效. A doctor's account receives a grant and finds it
 * under 共享给我的 on Mine.
 */

interface Envelope<T> {
  code: number
  data: T
  error?: string | null
  message?: string
}

async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ status: number; body: Envelope<T> }> {
  const response = await fetch(`${BASE_URL}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  return { status: response.status, body: (await response.json()) as Envelope<T> }
}

async function login(mobile: string): Promise<string> {
  const answer = await api<{ access_token: string }>('/sso/oauth2/token', {
    method: 'POST',
    body: { grant_type: 'password', username: mobile, password: 'demo1234' },
  })
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  return answer.body.data.access_token
}

const EXAM_TITLE = '头颅 MR 平扫（演示）'
const PATIENT = '13800000001'
const DOCTOR = '13900000002'

interface ExamSummary {
  id: string
  title: string
  report: { id: string } | null
}

describe('sharing, the holder’s side', () => {
  let visitor: Phone
  let doctor: Phone
  let ownerToken = ''
  let examId = ''
  let path = ''
  let code = ''
  let grantId = ''

  before(async () => {
    visitor = await openPhone()
    doctor = await openPhone()
    ownerToken = await login(PATIENT)
    const groups = await api<{ latest: ExamSummary[] }[]>('/main/images', { token: ownerToken })
    assert.equal(groups.status, 200)
    const exam = groups.body.data
      .flatMap((group) => group.latest)
      .find((one) => one.title === EXAM_TITLE)
    assert.ok(exam, 'the demo exam is listed')
    examId = exam.id
    const created = await api<{
      grant: { id: string }
      link: { path: string; pickupCode: string }
    }>('/main/grants', {
      method: 'POST',
      token: ownerToken,
      body: {
        audience: 'link',
        examIds: [examId],
        reportIds: exam.report ? [exam.report.id] : [],
        duration: '24h',
        pickupCode: true,
      },
    })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    path = created.body.data.link.path
    code = created.body.data.link.pickupCode
    grantId = created.body.data.grant.id
  })
  after(async () => {
    await visitor.close()
    await doctor.close()
  })

  it('the link asks its 提取码, refuses a wrong one in Chinese, then shows the records', async () => {
    const { page } = visitor
    await page.goto(`${BASE_URL}${path}`)
    await view(page)
      .getByText(/向您分享了医疗影像/)
      .waitFor()
    await view(page)
      .getByText(/有效期至/)
      .waitFor()
    await screenshot(page, 'sharing-holder-landing')
    const input = view(page).locator('input')
    const wrong = String((Number(code) + 1) % 10000).padStart(4, '0')
    await input.fill(wrong)
    await view(page).locator('.share-landing__open').click()
    await view(page).getByText('提取码错误，请向分享人确认').waitFor()
    await input.fill(code)
    await view(page).locator('.share-landing__open').click()
    await view(page)
      .locator('.share-banner')
      .getByText(/分享 · 有效期至/)
      .waitFor()
    await view(page).locator('.shared-records__title', { hasText: EXAM_TITLE }).first().waitFor()
    assert.match(page.url(), /pages\/share\/share\?grantId=/)
    await screenshot(page, 'sharing-holder-records')
  })

  it('the exam shows its series under the watermark, with no way to share it on', async () => {
    const { page } = visitor
    await view(page).locator('.shared-records__item').first().click()
    await view(page).locator('.exam-detail__title', { hasText: EXAM_TITLE }).waitFor()
    await view(page).locator('.series-grid__tile img[src^="blob:"]').first().waitFor({
      timeout: 30_000,
    })
    const mark = view(page).getByTestId('watermark')
    assert.match(
      (await mark.innerText()).split('\n')[0] ?? '',
      /^分享访客 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/,
    )
    assert.equal(await mark.evaluate((node) => getComputedStyle(node).pointerEvents), 'none')
    for (const name of ['授权', '二维码', '分享']) {
      assert.equal(await view(page).getByRole('button', { name, exact: true }).count(), 0)
    }
    await screenshot(page, 'sharing-holder-exam')
  })

  it('the viewer draws the series through the link’s token, watermarked', async () => {
    const { page } = visitor
    await view(page).locator('.series-grid__tile').first().click()
    await page.waitForFunction(
      () => performance.getEntriesByName('viewer-render').length > 0,
      undefined,
      { timeout: 30_000 },
    )
    await view(page).getByTestId('watermark').waitFor()
    await screenshot(page, 'sharing-holder-viewer')
  })

  it('after 撤销 the visitor’s next slice fails with 授权已失效, and the pages say it in full', async () => {
    const { page } = visitor
    const revoked = await api(`/main/grants/${grantId}`, { method: 'DELETE', token: ownerToken })
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body))
    // Past the slices fetched ahead (8 each side of the middle of 20): the next one is asked now.
    for (let step = 0; step < 10; step += 1) await view(page).getByTestId('viewer-next').click()
    await view(page).locator('.image-viewer__message', { hasText: '授权已失效' }).waitFor()
    await screenshot(page, 'sharing-holder-viewer-ended')
    await page.goto(`${BASE_URL}/pages/share/exam?grantId=${grantId}&examId=${examId}`)
    await view(page).getByText('授权已失效').waitFor()
    assert.equal(await view(page).getByText('重试').count(), 0)
    await screenshot(page, 'sharing-holder-ended')
  })

  it('a doctor’s account receives a grant and finds it under 共享给我的', async () => {
    const created = await api('/main/grants', {
      method: 'POST',
      token: ownerToken,
      body: {
        audience: 'account',
        mobile: DOCTOR,
        examIds: [examId],
        reportIds: [],
        duration: '7d',
      },
    })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const { page } = doctor
    await signIn(doctor, { mobile: DOCTOR, password: 'demo1234' })
    await page.goto(`${BASE_URL}/pages/user/user`)
    const section = view(page).locator('.mine-received')
    await section.getByText('共享给我的').waitFor()
    // The cell takes the tap (its title lets touches through to it).
    await section
      .locator('.nut-cell', { hasText: /分享的 1 项影像或报告/ })
      .first()
      .click()
    await view(page).locator('.shared-records__title', { hasText: EXAM_TITLE }).waitFor()
    await view(page).locator('.shared-records__item').first().click()
    await view(page).locator('.exam-detail__title', { hasText: EXAM_TITLE }).waitFor()
    assert.match(
      (await view(page).getByTestId('watermark').innerText()).split('\n')[0] ?? '',
      /^\S+ \d{4}-\d{2}-\d{2} \d{2}:\d{2}/,
    )
    await screenshot(doctor.page, 'sharing-holder-doctor')
  })

  it('logged no console errors but the refused ones', () => {
    const unexpected = (errors: string[]) =>
      errors.filter(
        (line) =>
          !/^(400|403) .*\/(main\/(shares|shared)|dicomweb)\//.test(line) &&
          !/status of 40[03]/.test(line),
      )
    assert.deepEqual(unexpected(visitor.errors), [])
    assert.deepEqual(unexpected(doctor.errors), [])
  })
})
