import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * 亲情卡 end to end (issue 9): a new guardian adds a child under 14 with the guardian statement; a
 * hospital pushes a study for the child's ID number and name; 我的影像 shows nothing of the
 * guardian's own, and after switching 当前就诊人 to the child shows the child's study. An adult
 * member is added with the code sent to THEIR phone (the demo SMS outbox). 我的消息 opens empty.
 */

const ROOT = path.resolve(__dirname, '..')
const PASSWORD = 'Family2026'
const CHILD_NAME = '张小宝'

interface Envelope<T> {
  code: number
  data: T
  error?: string | null
}

interface Outbox {
  code: string
  purpose: string
  sentAt: string
}

async function api<T>(
  url: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ status: number; body: Envelope<T> }> {
  const response = await fetch(`${BASE_URL}${url}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  return { status: response.status, body: (await response.json()) as Envelope<T> }
}

async function latestSms(mobile: string, purpose: string): Promise<string> {
  for (let i = 0; i < 40; i += 1) {
    const { status, body } = await api<Outbox>(`/main/demo/sms/latest?mobile=${mobile}`)
    if (status === 200 && body.data.purpose === purpose) return body.data.code
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`no ${purpose} code for ${mobile} in the demo outbox`)
}

function randomMobile(): string {
  return `136${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`
}

/** A resident ID number with a valid check character (GB 11643), born on `birth` (YYYYMMDD). */
function idNumber(birth: string): string {
  const body = `110101${birth}${String(100 + Math.floor(Math.random() * 800))}`
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
  const sum = [...body].reduce((total, digit, i) => total + Number(digit) * weights[i]!, 0)
  return body + '10X98765432'[sum % 11]!
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' })
  assert.equal(result.status, 0, `${command} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

/** What a hospital does: a synthetic study for this patient, sent by STOW-RS with the demo key. */
function pushStudy(name: string, id: string): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'yx-e2e-family-'))
  run('npm', ['run', '-s', 'hospital', '--', 'sample', dir, '--name', name, '--id-number', id])
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
}

/** A new account on `mobile`, registered as a user does: a code from the demo outbox. */
async function register(mobile: string): Promise<void> {
  const sent = await api('/sso/sms/send', {
    method: 'POST',
    body: { mobile, purpose: 'register' },
  })
  assert.equal(sent.status, 200, JSON.stringify(sent.body))
  const registered = await api('/sso/register', {
    method: 'POST',
    body: { mobile, code: await latestSms(mobile, 'register'), password: PASSWORD, agreed: true },
  })
  assert.equal(registered.status, 200, JSON.stringify(registered.body))
}

describe('亲情卡 and 当前就诊人', () => {
  let phone: Phone
  const guardian = randomMobile()
  const childId = idNumber(`${new Date().getFullYear() - 6}0315`)

  before(async () => {
    // A fresh account, so no other test's family shows up here (nor this one's there).
    await register(guardian)
    phone = await openPhone()
    await signIn(phone, { mobile: guardian, password: PASSWORD })
  })
  after(async () => {
    await phone.close()
  })

  it('adds a child under 14 with the guardian statement', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/relationCard/relationCard`)
    await view(page).getByText('还没有添加家人', { exact: false }).waitFor()
    await view(page).locator('.family__add', { hasText: '添加儿童' }).click()
    await view(page).locator('input[placeholder="与身份证或户口簿一致"]').fill(CHILD_NAME)
    await view(page).locator('input[placeholder="儿童的 18 位身份证号"]').fill(childId)
    // Without the statement nothing is sent.
    await view(page).locator('.form-submit').click()
    await view(page).getByText('请确认您是该儿童的监护人').waitFor()
    await view(page).getByText('我是该儿童的监护人').click()
    await screenshot(page, 'family-add-child')
    await view(page).locator('.form-submit').click()
    await view(page).getByText('我管理的家人').waitFor()
    const row = view(page).locator('.family__row').first()
    await row.getByText('儿童').waitFor()
    assert.match(await row.innerText(), /子女/)
    await screenshot(page, 'family-list')
  })

  it('switches 我的影像 to the child and shows the study a hospital pushed for them', async () => {
    pushStudy(CHILD_NAME, childId)
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalImage/index`)
    const switcher = view(page).locator('.person-switcher')
    await switcher.locator('.person-switcher__name', { hasText: '本人' }).waitFor()
    // The guardian's own list: nothing of the child's.
    await view(page).getByText('~ 空空如也 ~').waitFor()
    await switcher.getByText('切换').click()
    await page.locator('.nut-actionsheet:visible').getByText(/^子女/).click()
    await switcher.locator('.person-switcher__name', { hasText: /^子女/ }).waitFor()
    await view(page).getByText('示例市第一人民医院').first().waitFor()
    await view(page).getByText('头颅 CT 平扫（演示）').first().waitFor()
    await screenshot(page, 'family-child-images')

    // Remembered when the page opens again.
    await page.reload()
    await view(page).locator('.person-switcher__name', { hasText: /^子女/ }).waitFor()
    await view(page).getByText('头颅 CT 平扫（演示）').first().waitFor()
  })

  it('the child’s exam says whose it is, and 授权 from it makes the child’s grant', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalImage/index`)
    await view(page).getByText('头颅 CT 平扫（演示）').first().click()
    const whose = view(page).locator('.exam-detail__row', { hasText: '就诊人' })
    await whose.getByText(/^子女 /).waitFor()
    assert.doesNotMatch(await whose.innerText(), new RegExp(CHILD_NAME))
    await screenshot(page, 'family-child-exam')
    await view(page).locator('.share-button').click()
    const sheet = page.locator('.grant-sheet:visible')
    await sheet.getByText('授权内容').waitFor()
    await sheet.locator('.grant-sheet__submit').click()
    await sheet.getByText('链接和提取码只显示这一次，关闭后无法再查看，请现在复制或分享').waitFor()
    await sheet.locator('.grant-result__action', { hasText: '查看授权记录' }).click()
    // 授权记录 of the child's exam lists it, said to be the child's.
    const list = view(page).last()
    await list.locator('.grant-card').first().waitFor()
    await list.locator('.grant-card__meta', { hasText: '就诊人' }).first().waitFor()
    await screenshot(page, 'family-child-grants')
  })

  it('adds an adult with the code sent to their own phone', async () => {
    const { page } = phone
    const adult = randomMobile()
    await page.goto(`${BASE_URL}/pages/relationCard/relationCard`)
    await view(page).locator('.family__add', { hasText: '添加成年家人' }).click()
    await view(page).locator('input[placeholder="请输入家人的手机号"]').fill(adult)
    await view(page).getByText('获取验证码').click()
    const code = await latestSms(adult, 'family')
    await view(page).locator('input[placeholder="请输入验证码"]').fill(code)
    await view(page).getByText('配偶').click()
    await screenshot(page, 'family-add-adult')
    await view(page).locator('.form-submit').click()
    await view(page).getByText('我管理的家人').waitFor()
    await view(page).locator('.family__row', { hasText: '配偶' }).getByText('成人').waitFor()
    await screenshot(page, 'family-list-two')
  })

  it('我的消息 opens, empty for a new account', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/msg/list`)
    await view(page).getByText('没有未读消息').waitFor()
    await view(page).getByText('暂无消息').waitFor()
    await screenshot(page, 'family-messages-empty')
  })

  it('the other parent, invited by phone, accepts from the message and sees the child', async () => {
    // A second account: the child's other parent.
    const parent = randomMobile()
    await register(parent)

    // The guardian invites them from the child's row.
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/relationCard/relationCard`)
    await view(page)
      .locator('.family__row', { hasText: '儿童' })
      .first()
      .getByText('邀请监护人')
      .click()
    await view(page).locator('input[placeholder="孩子另一位监护人的手机号"]').fill(parent)
    await screenshot(page, 'family-invite-guardian')
    await view(page).locator('.form-submit').click()
    await view(page).getByText('我管理的家人').waitFor()

    // The other parent starts where they would: 我的消息, the invitation, 查看.
    const other = await openPhone()
    try {
      await signIn(other, { mobile: parent, password: PASSWORD })
      await other.page.goto(`${BASE_URL}/pages/msg/list`)
      const item = view(other.page).locator('.messages__item', { hasText: '共同监护邀请' })
      await item.locator('.messages__main').click()
      await view(other.page).locator('.message-detail__open', { hasText: '查看' }).click()
      await other.page.waitForURL((url) => url.pathname === '/pages/relationCard/relationCard')
      await view(other.page).getByText('待处理的共同监护邀请').waitFor()
      await view(other.page).getByText('获取验证码').click()
      await view(other.page)
        .locator('input[placeholder="请输入验证码"]')
        .fill(await latestSms(parent, 'family'))
      await screenshot(other.page, 'family-invitation')
      await view(other.page).locator('.family__invitation .nut-button', { hasText: '接受' }).click()
      await view(other.page).locator('.family__row', { hasText: '儿童' }).waitFor()
      assert.equal(await view(other.page).getByText('待处理的共同监护邀请').count(), 0)
      await screenshot(other.page, 'family-invitation-accepted')
      assert.deepEqual(other.errors, [])
    } finally {
      await other.close()
    }
  })

  it('showed no unexpected errors', () => {
    assert.deepEqual(
      phone.errors.filter((line) => !/请确认您是该儿童的监护人/.test(line)),
      [],
    )
  })
})
