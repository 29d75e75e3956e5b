import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * The owner's side of sharing (issue 9): 影像详情 → 授权 makes a link with 提取码 for 24 小时, shown
 * once with copy and QR code; a visitor opens it (through the API here: the visitor's pages are
 * e2e/sharing-holder.test.ts) and reads the exam; 授权记录 shows the view and its log, 谁看过 on
 * the exam shows it too; 撤销 ends it and the visitor's next read is answered 授权已失效.
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

const EXAM_TITLE = '头颅 MR 平扫（演示）'

describe('sharing, the owner’s side', () => {
  let phone: Phone
  let url = ''
  let code = ''
  let visitorToken = ''
  let grantId = ''
  let examId = ''
  /** The second exam ticked in the sheet. */
  let otherTitle = ''

  before(async () => {
    phone = await openPhone()
    await signIn(phone, { mobile: '13800000001', password: 'demo1234' })
  })
  after(async () => {
    await phone.close()
  })

  it('授权 on 影像详情 makes a link with 提取码 for 24 小时, shown once with its QR code', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalImage/index`)
    await view(page).getByText(EXAM_TITLE).click()
    await view(page).locator('.exam-detail__title', { hasText: EXAM_TITLE }).waitFor()
    // Whose record it is.
    await view(page).locator('.exam-detail__row', { hasText: '就诊人' }).getByText('本人').waitFor()
    await view(page).locator('.share-button').click()
    const sheet = page.locator('.grant-sheet:visible')
    await sheet.getByText('授权内容').waitFor()
    // Several records in one grant: another of the demo patient's exams, its images ticked.
    await sheet.getByText('＋ 同时授权其他检查').click()
    await sheet.getByText('其他检查（可多选）').waitFor()
    const other = sheet.locator('.grant-sheet__record', { hasText: /^影像 · / }).nth(1)
    otherTitle = ((await other.locator('.grant-sheet__record-label').textContent()) ?? '')
      .replace(/^影像 · /, '')
      .trim()
    await other.click()
    await screenshot(page, 'sharing-owner-sheet-several')
    await sheet.getByRole('radio', { name: '链接 / 二维码' }).click()
    await sheet.getByRole('radio', { name: '24 小时' }).click()
    await screenshot(page, 'sharing-owner-sheet')
    await sheet.locator('.grant-sheet__submit').click()
    await sheet.getByText('链接和提取码只显示这一次，关闭后无法再查看，请现在复制或分享').waitFor()
    url = (await sheet.locator('.grant-result__link').textContent())?.trim() ?? ''
    code = (await sheet.locator('.grant-result__code').textContent())?.trim() ?? ''
    assert.match(url, /\/pages\/share\/share\?token=[A-Za-z0-9_-]{20,}$/)
    assert.match(code, /^\d{4}$/)
    // The QR code is also an image, so a long press can save it.
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>(
        '.grant-qr__image img, img.grant-qr__image',
      )
      return Boolean(image && image.complete && image.naturalWidth > 0)
    })
    await screenshot(page, 'sharing-owner-link')
    await sheet.locator('.grant-result__action', { hasText: '完成' }).click()
  })

  it('a visitor with the link and 提取码 reads the exam; a wrong code is refused', async () => {
    const token = new URL(url).searchParams.get('token') ?? ''
    const preview = await api<{ needsPickupCode: boolean; statusLabel: string }>(
      `/main/shares/${token}`,
    )
    assert.equal(preview.status, 200)
    assert.equal(preview.body.data.needsPickupCode, true)
    const wrong = String((Number(code) + 1) % 10000).padStart(4, '0')
    const refused = await api(`/main/shares/${token}/open`, {
      method: 'POST',
      body: { pickupCode: wrong },
    })
    assert.equal(refused.status, 400)
    const opened = await api<{
      accessToken: string
      grant: { id: string; records: { kind: string; examId: string; title: string }[] }
    }>(`/main/shares/${token}/open`, { method: 'POST', body: { pickupCode: code } })
    assert.equal(opened.status, 200, JSON.stringify(opened.body))
    visitorToken = opened.body.data.accessToken
    grantId = opened.body.data.grant.id
    const exams = opened.body.data.grant.records.filter((one) => one.kind === 'exam')
    // Both exams ticked in the sheet are in the one grant.
    assert.equal(exams.length, 2, JSON.stringify(opened.body.data.grant.records))
    assert.ok(
      exams.some((one) => one.title === otherTitle),
      `${otherTitle} not shared`,
    )
    examId = exams.find((one) => one.title === EXAM_TITLE)?.examId ?? ''
    const read = await api(`/main/shared/${grantId}/exams/${examId}`, { token: visitorToken })
    assert.equal(read.status, 200, JSON.stringify(read.body))
  })

  it('授权记录 shows the grant with its view, and its log', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalReport/shouquan-list`)
    const card = view(page).locator('.grant-card').first()
    await card.locator('.grant-card__status', { hasText: '有效' }).waitFor()
    await card.getByText(/已查看 1 次/).waitFor()
    await card.getByText(/链接（需提取码）/).waitFor()
    await screenshot(page, 'sharing-owner-list')
    await card.getByText('查看记录 ›').click()
    const log = page.locator('.grant-views-sheet:visible')
    await log.getByText('分享访客').waitFor()
    await log.getByText(/影像 · 头颅 MR 平扫/).waitFor()
    await screenshot(page, 'sharing-owner-views')
  })

  it('the first view is a message to the patient, which opens 授权记录', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/msg/list`)
    // Other e2e files' grants of the same demo exam may have written theirs too: this grant's names
    // the exam the visitor read, through a link (分享访客).
    const item = view(page)
      .locator('.messages__item', { hasText: '您的授权已被查看' })
      .filter({ hasText: '分享访客' })
      .filter({ hasText: EXAM_TITLE })
      .first()
    await item.waitFor()
    await screenshot(page, 'sharing-owner-message')
    await item.locator('.messages__main').click()
    await view(page).locator('.message-detail__title', { hasText: '您的授权已被查看' }).waitFor()
    await view(page).locator('.message-detail__open').click()
    await view(page).locator('.grant-card').first().waitFor()
  })

  it('谁看过 on the exam lists the visitor', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalImage/detail?id=${examId}`)
    await view(page).locator('.who-viewed').click()
    await view(page).locator('.grant-list__heading', { hasText: '谁看过' }).waitFor()
    // Other e2e files share the same demo exam through their own grants: at least this visitor.
    await view(page).locator('.grant-views__who', { hasText: '分享访客' }).first().waitFor()
    await screenshot(page, 'sharing-owner-record-views')
  })

  it('撤销 ends the grant: the visitor’s next read is answered 授权已失效', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalReport/shouquan-list`)
    const card = view(page).locator('.grant-card').first()
    await card.locator('.grant-card__cancel').click()
    await page.getByText('撤销后链接立即失效', { exact: false }).waitFor()
    await page.locator('.taro-modal__foot').getByText('撤销', { exact: true }).click()
    await card.locator('.grant-card__status', { hasText: '已撤销' }).waitFor()
    const read = await api(`/main/shared/${grantId}/exams/${examId}`, { token: visitorToken })
    assert.equal(read.status, 403)
    assert.equal(read.body.error ?? read.body.message, '授权已失效')
  })

  it('logged no console errors', () => {
    // The visitor's refused reads are the test's own fetches, not the page's.
    assert.deepEqual(phone.errors, [])
  })
})
