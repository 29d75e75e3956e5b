import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { BASE_URL, settle, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * Images and reports end to end: a hospital pushes a study and its report with the README's own
 * lines (`npm run hospital -- sample`, then curl to STOW-RS and FHIR with the demo key), and the demo
 * patient finds both in 我的影像 and 个人报告, opens the report, marks it private, and opens the
 * hospital's film-bag code in detail2.
 */

const PATIENT = { mobile: '13800000001', password: 'demo1234' }
const ROOT = path.resolve(__dirname, '..')

interface Envelope<T> {
  data: T
}
interface ReportItem {
  id: string
  title: string | null
  hospital: { name: string }
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' })
  assert.equal(result.status, 0, `${command} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

async function api<T>(token: string, url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${BASE_URL}${url}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
  })
  assert.ok(response.ok, `${url}: ${response.status} ${await response.clone().text()}`)
  return ((await response.json()) as Envelope<T>).data
}

describe('images and reports', () => {
  let phone: Phone
  let token: string
  let studyUid: string
  let accession: string

  before(async () => {
    phone = await openPhone()
    token = await signIn(phone, PATIENT)
    // The demo's own records are pushed just after the server starts listening.
    for (let i = 0; i < 120; i++) {
      const reports = await api<{ items: ReportItem[] }>(token, '/main/reports')
      if (reports.items.length >= 3) break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }

    // The README's lines, as a hospital's operator would type them.
    const dir = mkdtempSync(path.join(tmpdir(), 'yx-e2e-study-'))
    const printed = run('npm', ['run', '-s', 'hospital', '--', 'sample', dir])
    studyUid = /StudyInstanceUID：(\S+)/.exec(printed)![1]!
    accession = /检查号：(\S+)/.exec(printed)![1]!
    const stored = run('curl', [
      '-sS',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-X',
      'POST',
      `${BASE_URL}/dicomweb/studies`,
      '-H',
      'Authorization: Bearer demo-hospital-key',
      '-H',
      'Accept: application/dicom+json',
      '-H',
      'Content-Type: multipart/related; type="application/dicom"; boundary=yingxiang-sample',
      '-H',
      'Prefer: wait=60',
      '--data-binary',
      `@${path.join(dir, 'stow.body')}`,
    ])
    assert.equal(stored, '200')
    const reported = run('curl', [
      '-sS',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-X',
      'POST',
      `${BASE_URL}/fhir/DiagnosticReport`,
      '-H',
      'Authorization: Bearer demo-hospital-key',
      '-H',
      'Content-Type: application/fhir+json',
      '--data-binary',
      `@${path.join(dir, 'report.json')}`,
    ])
    assert.equal(reported, '201')
  })
  after(async () => {
    await phone.close()
  })

  it('我的影像 shows the pushed study under its hospital', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalImage/index`)
    await view(page).getByText('示例市第一人民医院').first().waitFor()
    await view(page).getByText('头颅 CT 平扫（演示）').first().waitFor()
    await screenshot(page, 'records-my-images')
  })

  it('个人报告 lists the new report first; its detail shows 诊断意见; 设为隐私 hides it', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalReport/index`)
    const card = view(page).locator('.report-card').first()
    await card.waitFor()
    assert.match(await card.innerText(), /头颅 CT 平扫/)
    await screenshot(page, 'records-my-reports')
    await card.click()
    await view(page).getByText('头颅 CT 平扫未见明显异常。').waitFor()
    await view(page).getByText('诊断意见').first().waitFor()
    await screenshot(page, 'records-report-detail')

    // A small button in the page's action row; forced past the toast that may sit over it, so the
    // page must have finished sliding in first (a forced click does not wait for that).
    await settle(page)
    await view(page).getByText('设为隐私', { exact: true }).click({ force: true })
    await view(page).getByText('取消隐私').waitFor()
    const reports = await api<{ items: ReportItem[] }>(token, '/main/reports')
    assert.equal(
      reports.items.some((item) => item.title === '头颅 CT 平扫'),
      false,
      'a private report is left out of the list',
    )
  })

  it('the film-bag code the hospital prints opens the report in detail2, with who issued it', async () => {
    const issued = await fetch(`${BASE_URL}/scan/film-codes`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-hospital-key', 'content-type': 'application/json' },
      body: JSON.stringify({ studyInstanceUid: studyUid }),
    })
    assert.equal(issued.status, 200)
    const film = ((await issued.json()) as Envelope<{ url: string; accessionNumber: string }>).data
    assert.equal(film.accessionNumber, accession)
    const { page } = phone
    await page.goto(film.url)
    await view(page).getByText('出具医院').waitFor()
    await view(page).getByText('示例市第一人民医院').first().waitFor()
    await screenshot(page, 'records-film-code-detail2')
  })
})
