import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { CONSULT_CONSENT_VERSION } from '../contract/main/consultations'
import { BASE_URL, screenshot, view } from './support'

/**
 * What the experts e2e files (issue 20) share: accounts made through the API as a user makes them,
 * the applicant's steps that experts-certification.test.ts proves in the UI, and the taps several
 * screens of the journey need.
 */

export const OPERATOR = { mobile: '13700000003', password: 'demo1234' }
export const PATIENT = { mobile: '13800000001', password: 'demo1234' }
export const PASSWORD = 'Expert2026'
/** A picture the server accepts as a photo (sniffed, re-encoded); not a certificate, a demo poster. */
export const PHOTO = path.resolve(__dirname, '../server/src/domain/content/demo/media/talk-ct.jpg')

interface Envelope<T> {
  code: number
  data: T
}

/** A JSON call that must answer 200; answers its data. */
export async function api<T>(
  url: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<T> {
  const response = await fetch(`${BASE_URL}${url}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const text = await response.text()
  assert.equal(response.status, 200, `${url}: ${text}`)
  return (JSON.parse(text) as Envelope<T>).data
}

async function latestSms(mobile: string): Promise<string> {
  for (let i = 0; i < 40; i += 1) {
    const response = await fetch(`${BASE_URL}/main/demo/sms/latest?mobile=${mobile}`)
    if (response.ok) {
      const body = (await response.json()) as Envelope<{ code: string; purpose: string }>
      if (body.data.purpose === 'register') return body.data.code
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`no register code for ${mobile} in the demo outbox`)
}

/** A new account, registered as a user does (a code from the demo outbox); answers its phone. */
export async function register(): Promise<string> {
  const mobile = `135${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
  await api('/sso/sms/send', { body: { mobile, purpose: 'register' } })
  await api('/sso/register', {
    body: { mobile, code: await latestSms(mobile), password: PASSWORD, agreed: true },
  })
  return mobile
}

/** A resident ID number with a valid check character (GB 11643), born in 198x. */
export function idNumber(): string {
  const body = `110101198${Math.floor(Math.random() * 10)}0512${String(100 + Math.floor(Math.random() * 800))}`
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
  const sum = [...body].reduce((total, digit, i) => total + Number(digit) * weights[i]!, 0)
  return body + '10X98765432'[sum % 11]!
}

/**
 * 林 and the clock's last five digits in Chinese (林三七零九二): a name of this run's own, so a list
 * row is this run's applicant even in a database that earlier runs used.
 */
export function runName(): string {
  const digits = [...String(Date.now() % 100_000).padStart(5, '0')]
  return `林${digits.map((digit) => '零一二三四五六七八九'[Number(digit)]).join('')}`
}

/** A certificate photo of the application, as the form's upload sends it. */
export async function uploadPhoto(token: string, kind: string): Promise<void> {
  const form = new FormData()
  form.append('file', new Blob([readFileSync(PHOTO)], { type: 'image/jpeg' }), `${kind}.jpg`)
  const response = await fetch(`${BASE_URL}/main/experts/application/photos?kind=${kind}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  assert.equal(response.status, 200, await response.text())
}

/**
 * A certificate photo through the form: the add tile, then 从相册选择 on the browser build's sheet
 * (拍摄 / 从相册选择), whose tap opens the file dialog, taken as Playwright's filechooser event.
 */
export async function addPhoto(page: Page, kindLabel: string): Promise<void> {
  await view(page).locator(`[aria-label="上传${kindLabel}"]`).click()
  const album = page.locator('.taro__actionSheet div', { hasText: /^从相册选择$/ })
  await album.waitFor()
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), album.click()])
  await chooser.setFiles(PHOTO)
  await view(page).locator(`[aria-label="删除${kindLabel}第 1 张"]`).waitFor()
}

/** Types into the input with this placeholder on the page on screen, key by key. */
export async function type(page: Page, placeholder: string, value: string): Promise<void> {
  const input = view(page).locator(`input[placeholder="${placeholder}"]`)
  await input.fill('')
  await input.pressSequentially(value)
}

/** A NutUI button by its text (its label sits in an inner span the button itself covers). */
export function button(page: Page, text: string | RegExp) {
  return view(page).locator('.nut-button', { hasText: text })
}

/** Taro's modal's button (drawn outside the pages). */
export async function confirmModal(page: Page, text: string): Promise<void> {
  await page.locator('.taro-modal__foot').getByText(text, { exact: true }).click()
}

/** A picture without the action's toast over it (drawn outside the pages; it lasts 1.5 s). */
export async function quietScreenshot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.taro__toast')).every(
      (toast) => getComputedStyle(toast).display === 'none',
    ),
  )
  await screenshot(page, name)
}

/**
 * Set-up through the API (issue 21's pages are e2e/consultations-journey's): the patient submits a
 * consultation sharing `examId`, pays with 演示支付, and the expert accepts. Answers its id.
 */
export async function acceptedConsultation(input: {
  patientToken: string
  expertToken: string
  expertId: string
  service: 'text' | 'imaging'
  examId: string
  chiefComplaint: string
  presentIllness: string
  questions: string
}): Promise<string> {
  const token = input.patientToken
  const quote = await api<{ priceFen: number }>(
    `/main/consultations/quote?expertId=${input.expertId}&service=${input.service}`,
    { token },
  )
  const created = await api<{ id: string }>('/main/consultations', {
    token,
    body: {
      expertId: input.expertId,
      service: input.service,
      chiefComplaint: input.chiefComplaint,
      presentIllness: input.presentIllness,
      pastHistory: '无',
      allergies: '无',
      questions: input.questions,
      seenOffline: true,
      offlinePictureIds: [],
      examIds: [input.examId],
      reportIds: [],
      externalExams: [],
      priceFen: quote.priceFen,
      consent: { accepted: true, version: CONSULT_CONSENT_VERSION },
    },
  })
  const pay = await api<{ demoToken: string }>(`/main/consultations/${created.id}/pay`, {
    token,
    body: { client: 'h5' },
  })
  await api(`/main/consultations/${created.id}/demo-pay`, { token, body: { token: pay.demoToken } })
  await api(`/main/expert/consultations/${created.id}/accept`, {
    token: input.expertToken,
    body: {},
  })
  return created.id
}
