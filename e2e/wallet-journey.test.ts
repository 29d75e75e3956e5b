import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { yuanOf } from '../contract/main/consultations'
import { OPERATOR, api, button, confirmModal, quietScreenshot, type } from './experts-support'
import { openPhone, settle, signIn, view, type Phone, fromMine, tap } from './support'
import { inspectPage } from './walk/inspect'

/**
 * Issue 22's "Done when", on two phones at 390×844 (the demo expert; the demo operator for 审核),
 * each person starting where people start (我的) and tapping in. The expert's 我的钱包: the balance
 * read from the page equals GET /main/wallet and the 交易记录 rows on 可提现 add up to it; a row opens
 * 交易详情. Then three withdrawals through 提现 (the tax and the net before confirming, the login
 * password on the sheet) with the demo provider (演示提现: ACCEPTED → 待确认收款 → 确认收款 →
 * TRANSFERING → SUCCESS, a few seconds, the page following by itself):
 *   1. ¥100.00 reaches 已到账 and the balance drops by exactly the gross;
 *   2. ¥12.44 (an amount ending in .44 fails at the demo provider) ends 失败 — 已退回余额 with the
 *      reason, in 提现记录 too, and the balance is back;
 *   3. a large one (above the 审核 threshold) waits in 审核中 until the operator, on the second phone,
 *      approves it in 运营后台 → 提现审核; the expert then sees it go on to 已到账.
 * After every money step the ledger holds (the operators' 立即核对, the same check as
 * `npm run ledger:check`); at the end the operator's 对账 of the day finds no difference.
 * Every wallet page is photographed (e2e/artifacts/wallet-*.png) and inspected like the route walk.
 *
 * Needs the demo expert's seeded wallet: a fresh demo database (¥2,400.00 可提现), or at least what
 * the three withdrawals take.
 */

const PHONE_390 = { width: 390, height: 844 }
const EXPERT = { mobile: '13900000002', password: 'demo1234' }
const FIRST_FEN = 10_000
const FAILING_FEN = 1_244

interface Overview {
  availableFen: number
  pendingFen: number
  withdrawingFen: number
  limits: { reviewAboveFen: number; leftTodayFen: number }
}
interface Withdrawal {
  id: string
  state: string
  grossFen: number
  taxFen: number
  netFen: number
  billNo: string
  reason: string | null
  createdAt: string
}
interface LedgerCheck {
  ok: boolean
  problems: string[]
}

/** 2400.00, +¥800.00, -¥12.44 → signed fen (integer arithmetic, no floating point). */
function fenOf(text: string): number {
  const match = /([+-])?¥?\s*(\d+)\.(\d{2})/.exec(text)
  assert.ok(match, `an amount in 「${text}」`)
  const fen = Number(match[2]) * 100 + Number(match[3])
  return match[1] === '-' ? -fen : fen
}

/** 10000 → 100.00, what the expert types. */
const typed = (fen: number) => yuanOf(fen)
/** 10000 → ¥100.00, 205000 → ¥2050.00, as the pages show it. */
const shown = (fen: number) => `¥${yuanOf(fen)}`

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function login(account: { mobile: string; password: string }): Promise<string> {
  const session = await api<{ access_token: string }>('/sso/oauth2/token', {
    body: { grant_type: 'password', username: account.mobile, password: account.password },
  })
  return session.access_token
}

/**
 * What the route walk checks (controls at least 24×24, nothing off the screen, icons drawn, no
 * label cut, no error state), and the wallet's own: no raw error text, every amount in 元 with two
 * decimals, nothing wider than the phone.
 */
async function looksRight(phone: Phone, name: string): Promise<void> {
  const { page } = phone
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  const problems = await page.evaluate(inspectPage, { finished: true, finishedTitles: [] })
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  if (width > PHONE_390.width) problems.push(`页面宽 ${width}px`)
  const text = await page.evaluate(() => {
    const pages = Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).filter(
      (element) => element.checkVisibility(),
    )
    const sheets = Array.from(document.querySelectorAll<HTMLElement>('.nut-popup')).filter(
      (element) => element.checkVisibility(),
    )
    return [...pages, ...sheets].map((element) => element.innerText).join('\n')
  })
  const raw = /undefined|NaN|null|\[object Object\]|Error|Infinity/.exec(text)
  if (raw) problems.push(`原始错误文字：${raw[0]}`)
  for (const match of text.matchAll(/¥\s*([\d,.]*)/g)) {
    const amount = match[1]!
    if (amount === '') continue
    if (!/^(0|[1-9]\d*)\.\d{2}$/.test(amount)) problems.push(`金额不是两位小数：¥${amount}`)
  }
  const errors = phone.errors.splice(0)
  problems.push(...errors.map((error) => `出错：${error}`))
  assert.deepEqual(problems, [], name)
}

/** A picture of the page on screen (no toast over it), and the checks above. */
async function shot(phone: Phone, name: string): Promise<void> {
  await quietScreenshot(phone.page, `wallet-${name}`)
  await looksRight(phone, name)
}

/** The balance 我的钱包 shows (可提现余额), in fen. */
async function balanceOnPage(page: Page): Promise<number> {
  const text = await view(page).locator('.wallet-head__balance').textContent()
  return fenOf(text ?? '')
}

/** Every 交易记录 row (load-more until -- END --): its meta line and signed fen. */
async function tradeRows(page: Page): Promise<{ meta: string; fen: number }[]> {
  const list = view(page)
  for (let round = 0; round < 30; round += 1) {
    if (await list.getByText('-- END --').isVisible()) break
    await list.locator('.wallet-trade').last().scrollIntoViewIfNeeded()
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    await sleep(400)
  }
  assert.ok(await list.getByText('-- END --').isVisible(), '交易记录 loaded to its end')
  const rows = list.locator('.wallet-trade')
  const found: { meta: string; fen: number }[] = []
  for (let index = 0; index < (await rows.count()); index += 1) {
    const row = rows.nth(index)
    found.push({
      meta: (await row.locator('.wallet-trade__meta').textContent()) ?? '',
      fen: fenOf((await row.locator('.wallet-trade__amount').textContent()) ?? ''),
    })
  }
  await page.evaluate(() => window.scrollTo(0, 0))
  return found
}

/** The state on 提现详情 (or 提现's result), waited for. */
function stateTag(page: Page, label: string) {
  return view(page).locator('[aria-label="提现详情"] .wallet-state', { hasText: label })
}

describe('the expert’s wallet: a balance that adds up, withdrawals to 已到账, a failure returned, a large one reviewed', () => {
  let expert: Phone
  let operator: Phone
  let expertToken: string
  let operatorToken: string
  let start: Overview
  /** The balance after each step, as the page showed it. */
  let afterFirst: number

  const wallet = async () => api<Overview>('/main/wallet', { token: expertToken })
  const withdrawals = async () =>
    (
      await api<{ items: Withdrawal[] }>('/main/wallet/withdrawals?page=1&pageSize=10', {
        token: expertToken,
      })
    ).items

  /** The ledger's invariants, as `npm run ledger:check` runs them (运营后台's 立即核对). */
  async function ledgerHolds(step: string): Promise<void> {
    const check = await api<LedgerCheck>('/main/operator/money/check', {
      token: operatorToken,
      body: {},
    })
    assert.deepEqual(check.problems, [], `账本核对 after ${step}`)
    assert.equal(check.ok, true)
  }

  /** 提现: types the amount, waits for the quote, and checks the tax and net it shows. */
  async function quote(page: Page, fen: number): Promise<{ taxFen: number; netFen: number }> {
    await type(page, '请输入提现金额', typed(fen))
    const box = view(page).locator('[aria-label="提现试算"]')
    await box.waitFor()
    const rows = box.locator('.wallet-row')
    const taxText = (await rows.filter({ hasText: '代扣个税' }).textContent()) ?? ''
    const netText = (await rows.filter({ hasText: '实际到账' }).textContent()) ?? ''
    const taxFen = fenOf(taxText)
    const netFen = fenOf(netText)
    assert.equal(taxFen + netFen, fen, 'tax + net = the amount')
    return { taxFen, netFen }
  }

  /** 下一步, the password on the sheet, 确认提现: answers the time it was sent and the withdrawal. */
  async function confirmWithPassword(
    page: Page,
    fen: number,
    shotName?: string,
  ): Promise<{ sentAt: number; withdrawal: Withdrawal }> {
    await button(page, '下一步').click()
    const sheet = page.locator('.withdraw-sheet')
    await sheet.waitFor()
    await settle(page)
    const summary = (await sheet.locator('.withdraw-sheet-sum').innerText()).replace(/\s+/g, ' ')
    assert.match(summary, new RegExp(`提现金额 ${shown(fen).replace(/[.$]/g, '\\$&')}`))
    assert.match(summary, /代扣个税 ¥\d+\.\d\d/)
    assert.match(summary, /实际到账 ¥\d+\.\d\d/)
    await sheet.locator('input[type=password]').fill(EXPERT.password)
    if (shotName) await shot(expert, shotName)
    const [response] = await Promise.all([
      page.waitForResponse(
        (answer) =>
          answer.request().method() === 'POST' && /\/main\/wallet\/withdrawals$/.test(answer.url()),
      ),
      sheet.locator('.nut-button', { hasText: '确认提现' }).click(),
    ])
    const sentAt = Date.now()
    assert.equal(response.status(), 200, await response.text())
    const withdrawal = ((await response.json()) as { data: Withdrawal }).data
    assert.equal(withdrawal.grossFen, fen)
    return { sentAt, withdrawal }
  }

  before(async () => {
    ;[expert, operator] = await Promise.all([openPhone(PHONE_390), openPhone(PHONE_390)])
    // tsx names functions with a helper the browser does not have; page.evaluate ships them.
    await Promise.all([
      expert.context.addInitScript('window.__name = (f) => f'),
      operator.context.addInitScript('window.__name = (f) => f'),
    ])
    await Promise.all([signIn(expert, EXPERT), signIn(operator, OPERATOR)])
    ;[expertToken, operatorToken] = await Promise.all([login(EXPERT), login(OPERATOR)])
    // Demo mode writes the wallet's income just after the server answers its health check.
    for (let i = 0; i < 120; i += 1) {
      start = await wallet()
      if (start.availableFen > 0) break
      await sleep(500)
    }
    const large = start.limits.reviewAboveFen + 5_000
    assert.ok(
      start.availableFen >= FIRST_FEN + large,
      `the demo expert has ${start.availableFen} fen 可提现; the journey needs a fresh demo database`,
    )
    assert.equal(start.withdrawingFen, 0, 'no withdrawal of the demo expert is in flight')
    await ledgerHolds('the start')
  })
  after(async () => {
    await Promise.all([expert?.close(), operator?.close()])
  })

  it('我的钱包: the balance is the server’s and the 交易记录 on 可提现 add up to it; a row opens 交易详情', async () => {
    const { page } = expert
    await fromMine(page, '我的钱包')
    await view(page).locator('.wallet-head__balance').waitFor()
    await view(page).locator('.wallet-trade').first().waitFor()
    await settle(page)
    assert.equal(await balanceOnPage(page), start.availableFen, '可提现余额 = GET /main/wallet')
    const head = (await view(page).locator('.wallet-head__held').innerText()).replace(/\s+/g, ' ')
    assert.match(head, new RegExp(`待结算 ${shown(start.pendingFen).replace(/[.$]/g, '\\$&')}`))
    await shot(expert, '1-wallet')

    const rows = await tradeRows(page)
    const available = rows.filter((row) => row.meta.includes(' · 可提现 · '))
    assert.ok(available.length > 0, 'rows on 可提现')
    assert.equal(
      available.reduce((sum, row) => sum + row.fen, 0),
      start.availableFen,
      'the 可提现 rows add up to the balance',
    )
    const pending = rows.filter((row) => row.meta.includes(' · 待结算 · '))
    assert.ok(pending.length > 0, 'income rows on 待结算')

    // A settled consultation's row: 交易详情 with the consultation's split.
    const row = view(page).locator('.wallet-trade', { hasText: '收入结算' }).first()
    const rowFen = fenOf((await row.locator('.wallet-trade__amount').textContent()) ?? '')
    await tap(row)
    await page.waitForURL(/pages\/myWallet\/trade\?id=/)
    await view(page).getByText('查看咨询详情').waitFor()
    await settle(page)
    const detail = (await view(page).innerText()).replace(/\s+/g, ' ')
    assert.ok(detail.includes(`+${shown(rowFen)}`), `交易详情 shows +${shown(rowFen)}`)
    assert.match(detail, /记入 可提现/)
    assert.match(detail, /咨询费 ¥\d+\.\d\d/)
    assert.match(detail, /专家所得 ¥\d+\.\d\d/)
    await shot(expert, '2-trade')
    await page.goBack()
    await settle(page)
  })

  it('提现 ¥100.00: the tax and net before confirming, the password, then 已到账 and the balance down by the gross', async () => {
    const { page } = expert
    await view(page).locator('.wallet-head__balance').waitFor()
    await button(page, /^提现$/).click()
    await page.waitForURL(/pages\/myWallet\/withdraw$/)
    await view(page).locator('input[placeholder="请输入提现金额"]').waitFor()
    await settle(page)
    await shot(expert, '3-withdraw-empty')
    const { netFen } = await quote(page, FIRST_FEN)
    await view(page).getByText('提交后即向微信零钱打款').waitFor()
    await shot(expert, '4-withdraw-quote')
    await view(page).getByText('个税怎么算').click()
    await view(page).locator('[aria-label="个税计算"]').waitFor()
    await view(page)
      .locator('[aria-label="个税计算"]')
      .evaluate((element) => element.scrollIntoView({ block: 'center' }))
    await shot(expert, '5-withdraw-tax')

    const { sentAt, withdrawal } = await confirmWithPassword(page, FIRST_FEN, '6-password-sheet')
    // The page shows the withdrawal and follows it: 打款中, then 待确认收款 by itself.
    await stateTag(page, '打款中').or(stateTag(page, '待确认收款')).waitFor()
    if (await stateTag(page, '打款中').isVisible()) await shot(expert, '7-detail-paying')
    await stateTag(page, '待确认收款').waitFor({ timeout: 15_000 })
    const waitingAt = Date.now()
    await shot(expert, '8-detail-confirm')
    await ledgerHolds('提现 ¥100.00 held')

    await button(page, '确认收款').click()
    const confirmedAt = Date.now()
    await stateTag(page, '已到账').waitFor({ timeout: 20_000 })
    const paidAt = Date.now()
    console.log(
      `# ¥100.00: 确认提现 → 待确认收款 ${waitingAt - sentAt} ms; 确认收款 → 已到账 ${paidAt - confirmedAt} ms; in all ${paidAt - sentAt} ms`,
    )
    const card = (await view(page).innerText()).replace(/\s+/g, ' ')
    assert.ok(card.includes(`实际到账 ${shown(netFen)}`), card)
    assert.match(card, /到账时间 \d{4}-\d\d-\d\d \d\d:\d\d/)
    await shot(expert, '9-detail-paid')
    await ledgerHolds('提现 ¥100.00 paid')
    const done = await api<Withdrawal>(`/main/wallet/withdrawals/${withdrawal.id}`, {
      token: expertToken,
    })
    assert.equal(done.state, 'paid')

    await button(page, '返回我的钱包').click()
    await page.waitForURL(/pages\/myWallet\/myWallet/)
    await view(page)
      .locator('.wallet-head__balance', { hasText: typed(start.availableFen - FIRST_FEN) })
      .waitFor()
    afterFirst = await balanceOnPage(page)
    assert.equal(afterFirst, start.availableFen - FIRST_FEN, 'the balance dropped by the gross')
    assert.equal((await wallet()).availableFen, afterFirst)
  })

  it('提现 ¥12.44 fails at the provider: 失败 — 已退回余额 with the reason, in 提现记录, and the balance is back', async () => {
    const { page } = expert
    await settle(page)
    await button(page, /^提现$/).click()
    await page.waitForURL(/pages\/myWallet\/withdraw$/)
    await view(page).locator('input[placeholder="请输入提现金额"]').waitFor()
    await settle(page)
    const { netFen } = await quote(page, FAILING_FEN)
    assert.equal(netFen % 100, 44, 'the amount paid out ends in .44 (the demo provider fails it)')
    const { sentAt, withdrawal } = await confirmWithPassword(page, FAILING_FEN)
    await stateTag(page, '待确认收款').waitFor({ timeout: 15_000 })
    await button(page, '确认收款').click()
    await stateTag(page, '失败 — 已退回余额').waitFor({ timeout: 20_000 })
    console.log(`# ¥12.44: 确认提现 → 失败 — 已退回余额 ${Date.now() - sentAt} ms`)
    await view(page).getByText('原因：演示失败').waitFor()
    // Nothing arrived and nothing was withheld: the gross is back, never 实际到账.
    const failedCard = (await view(page).innerText()).replace(/\s+/g, ' ')
    assert.ok(failedCard.includes(`已退回余额 ${shown(FAILING_FEN)}`), failedCard)
    assert.doesNotMatch(failedCard, /实际到账|预计到账/)
    await shot(expert, '10-detail-failed')
    await ledgerHolds('提现 ¥12.44 failed')

    // 我的钱包 loads its figures again on return: the failed amount is back.
    const [reloaded] = await Promise.all([
      page.waitForResponse(
        (answer) => answer.request().method() === 'GET' && /\/main\/wallet$/.test(answer.url()),
      ),
      button(page, '返回我的钱包').click(),
    ])
    assert.equal(((await reloaded.json()) as { data: Overview }).data.availableFen, afterFirst)
    await page.waitForURL(/pages\/myWallet\/myWallet/)
    await settle(page)
    assert.equal(await balanceOnPage(page), afterFirst, 'the balance is back')
    assert.equal((await wallet()).availableFen, afterFirst)

    await button(page, '提现记录').click()
    await page.waitForURL(/pages\/myWallet\/withdrawList/)
    const failedRow = view(page).locator('.withdrawal-row', { hasText: '失败 — 已退回余额' })
    await failedRow.waitFor()
    const failedText = (await failedRow.innerText()).replace(/\s+/g, ' ')
    assert.ok(failedText.includes(shown(FAILING_FEN)), failedText)
    assert.match(failedText, /原因：演示失败/)
    assert.ok(failedText.includes(`已退回余额 ${shown(FAILING_FEN)}`), failedText)
    await view(page).locator('.withdrawal-row', { hasText: '已到账' }).first().waitFor()
    await settle(page)
    await shot(expert, '11-withdrawals')
    const failed = (await withdrawals()).find((one) => one.id === withdrawal.id)
    assert.equal(failed?.state, 'failed')
    assert.equal(failed?.reason, '演示失败')
    await page.goBack()
    await settle(page)
  })

  it('a large one waits in 审核中; the operator approves it in 运营后台 → 提现审核; it goes on to 已到账', async () => {
    const { page } = expert
    const large = start.limits.reviewAboveFen + 5_000
    await view(page).locator('.wallet-head__balance').waitFor()
    await button(page, /^提现$/).click()
    await page.waitForURL(/pages\/myWallet\/withdraw$/)
    await view(page).locator('input[placeholder="请输入提现金额"]').waitFor()
    await settle(page)
    await quote(page, large)
    await view(page).getByText('这笔提现需平台审核，审核通过后打款').waitFor()
    await shot(expert, '12-withdraw-review-quote')
    const { sentAt, withdrawal } = await confirmWithPassword(page, large)
    assert.equal(withdrawal.state, 'reviewing')
    await stateTag(page, '审核中').waitFor()
    assert.match((await view(page).innerText()).replace(/\s+/g, ' '), /预计到账 ¥\d+\.\d\d/)
    await shot(expert, '13-detail-reviewing')
    await ledgerHolds('a large withdrawal held for 审核')
    const held = await wallet()
    assert.equal(held.availableFen, afterFirst - large)
    assert.equal(held.withdrawingFen, large)
    // 查看提现记录: it waits there in 审核中, beside the paid one and the failed one.
    await button(page, '查看提现记录').click()
    await page.waitForURL(/pages\/myWallet\/withdrawList/)
    const mine = view(page).locator('.withdrawal-row', { hasText: shown(large) })
    await mine.locator('.wallet-state', { hasText: '审核中' }).waitFor()
    assert.match((await mine.innerText()).replace(/\s+/g, ' '), /预计到账 ¥\d+\.\d\d/)
    await settle(page)
    await shot(expert, '14-withdrawals-reviewing')

    // The operator: 我的 → 运营后台 → 提现审核 → the row → 通过.
    const op = operator.page
    await fromMine(op, '运营后台')
    await view(op).locator('[role=tab]', { hasText: '提现审核' }).click()
    await settle(op)
    // The 提现限额 card, read and opened for editing (then left as it was).
    const limits = view(op).locator('[aria-label="提现限额"]')
    await limits.waitFor()
    assert.match((await limits.innerText()).replace(/\s+/g, ' '), /单笔限额 ¥20000\.00/)
    await shot(operator, '14-operator-limits')
    await limits.locator('.nut-button', { hasText: '修改' }).click()
    await limits.getByText('审核门槛（元）').waitFor()
    await shot(operator, '14-operator-limits-edit')
    await limits.locator('.nut-button', { hasText: '取消' }).click()
    await limits.locator('.nut-button', { hasText: '修改' }).waitFor()
    const row = view(op).locator(`[aria-label="提现 ${withdrawal.billNo}"]`)
    await row.waitFor()
    const rowText = (await row.innerText()).replace(/\s+/g, ' ')
    assert.ok(rowText.includes(`提现 ${shown(large)}`), rowText)
    assert.match(rowText, /审核中/)
    await row.evaluate((element) => element.scrollIntoView({ block: 'center' }))
    await shot(operator, '15-operator-review')
    await row.locator('.nut-button', { hasText: '通过' }).click()
    await confirmModal(op, '通过')
    const approvedAt = Date.now()
    await row.waitFor({ state: 'detached' })
    await ledgerHolds('the large withdrawal approved')

    // The expert, still on 提现记录: the row → 提现详情, no longer 审核中, following it.
    await tap(mine)
    await page.waitForURL(/pages\/myWallet\/withdrawal\?id=/)
    await stateTag(page, '待确认收款').waitFor({ timeout: 15_000 })
    console.log(
      `# ¥${typed(large)}: 通过 → 待确认收款 on the expert’s phone ${Date.now() - approvedAt} ms`,
    )
    await button(page, '确认收款').click()
    await stateTag(page, '打款中').or(stateTag(page, '已到账')).waitFor()
    if (await stateTag(page, '打款中').isVisible()) await shot(expert, '16-detail-transfering')
    await stateTag(page, '已到账').waitFor({ timeout: 20_000 })
    console.log(
      `# ¥${typed(large)}: 确认提现 → 已到账 ${Date.now() - sentAt} ms (审核 included), 通过 → 已到账 ${Date.now() - approvedAt} ms`,
    )
    await shot(expert, '17-detail-large-paid')
    await ledgerHolds('the large withdrawal paid')
    const now = await wallet()
    assert.equal(now.availableFen, afterFirst - large)
    assert.equal(now.withdrawingFen, 0)
  })

  it('after it all: 交易记录 still adds up, a withdrawal’s row opens it, and the operator’s 对账 and 账本核对 agree', async () => {
    const { page } = expert
    const final = await wallet()
    await fromMine(page, '我的钱包')
    await view(page).locator('.wallet-trade').first().waitFor()
    await settle(page)
    assert.equal(await balanceOnPage(page), final.availableFen)
    await shot(expert, '18-wallet-after')
    const rows = await tradeRows(page)
    assert.equal(
      rows
        .filter((row) => row.meta.includes(' · 可提现 · '))
        .reduce((sum, row) => sum + row.fen, 0),
      final.availableFen,
      'the 可提现 rows add up to the balance',
    )

    // 交易记录 filtered to 提现: each withdrawal's hold on 可提现 and its payout from 提现中; the
    // first one's hold opens 交易详情 → 查看提现详情.
    await view(page)
      .locator('[role=tab]', { hasText: /^提现$/ })
      .click()
    const firstHold = view(page)
      .locator('.wallet-trade', { hasText: `-${shown(FIRST_FEN)}` })
      .filter({ hasText: ' · 可提现 · ' })
    await firstHold.waitFor()
    await settle(page)
    const kinds = await view(page).locator('.wallet-trade__meta').allInnerTexts()
    assert.ok(kinds.length >= 5, `提现 rows: ${kinds.length}`)
    assert.ok(
      kinds.every((meta) => meta.startsWith('提现 · ')),
      kinds.join('\n'),
    )
    await shot(expert, '19-wallet-filter')
    await tap(firstHold)
    await page.waitForURL(/pages\/myWallet\/trade\?id=/)
    await view(page).getByText('查看提现详情').waitFor()
    await settle(page)
    await shot(expert, '20-trade-withdrawal')
    await view(page).getByText('查看提现详情').click()
    await page.waitForURL(/pages\/myWallet\/withdrawal\?id=/)
    await stateTag(page, '已到账').waitFor()
    await settle(page)
    await shot(expert, '21-withdrawal-page')

    // The operator: 对账 of the withdrawals' day, then 咨询订单 → 账本核对 → 立即核对.
    const op = operator.page
    const day = new Date(Date.parse((await withdrawals())[0]!.createdAt) + 8 * 3600_000)
      .toISOString()
      .slice(0, 10)
    await fromMine(op, '运营后台')
    await view(op).locator('[role=tab]', { hasText: '提现审核' }).click()
    await settle(op)
    await type(op, '日期，如 2026-11-19', day)
    await button(op, '立即对账').click()
    await view(op)
      .locator('.withdrawal-reconcile', { hasText: `${day} · 一致` })
      .waitFor()
    await view(op).locator('[role=radio]', { hasText: /^全部/ }).click()
    await view(op).locator('.operator__row').first().waitFor()
    await settle(op)
    await shot(operator, '22-operator-reconciled')
    await view(op).locator('[role=tab]', { hasText: '咨询订单' }).click()
    await settle(op)
    const check = view(op).locator('[aria-label="平台分成与账本核对"]')
    await check.waitFor()
    await tap(check.locator('.nut-button', { hasText: '立即核对' }))
    await check.locator('.operator__state', { hasText: /^通过/ }).waitFor()
    await check.evaluate((element) => element.scrollIntoView({ block: 'center' }))
    await shot(operator, '23-operator-ledger-check')
    await ledgerHolds('the end')
  })
})
