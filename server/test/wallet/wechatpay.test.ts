import assert from 'node:assert/strict'
import { test } from 'node:test'
import { WALLET_MESSAGES } from '@contract/main/wallet'
import { TransferUnclear, wechatPayTransferProvider } from '../../src/providers/transfers'
import type { TransferLog } from '../../src/providers/transfers/wechatpay'
import type { RawNotification } from '../../src/providers/payments'
import { TRANSFER_NOTIFY_PATH } from '../../src/routes/main/wallet'
import { closeAfter } from '../helpers'
import type { TestUser } from '../domain/profile/support'
import {
  startTestMerchant,
  strangerKeys,
  TEST_APPID,
  TEST_MCHID,
  type WechatPayStandin,
} from '../support/wechatpay-standin'
import {
  balances,
  creditIncome,
  walletExpert,
  walletMessages,
  walletWorld,
  type WalletWorld,
  withdraw,
} from './support'

/*
 * The wallet end to end on WeChat Pay 商家转账: the app configured with the test merchant
 * (WECHATPAY_*, so main picks the wechatpay transfer adapter) against the local stand-in
 * (test/support/wechatpay-standin.ts), which signs, encrypts and keeps bills and the merchant's
 * 资金账单 as WeChat does. The expert withdraws, the bill waits for the user, confirmWithdrawal
 * gives the mini-program its parameters, the stand-in's user confirms, and WeChat's signed,
 * encrypted notification reaches POST /main/pay/wechatpay/transfer-notify. Each outcome (已到账,
 * 失败 — 已退回余额, 驳回) is applied and told in 我的消息 once, however notification, 刷新 and the
 * job race; a lost create answer is retried with the same bill number and paid once; WeChat's
 * refusals and failure reasons are shown in Chinese; 对账 against the 资金账单 of the day.
 * `ledger:check` after each. SQLite and PostgreSQL alike.
 */

const quiet = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
} as unknown as TransferLog

const PUBLIC_URL = 'https://yx.example.test'
const stranger = strangerKeys()

interface WechatWallet {
  world: WalletWorld
  standin: WechatPayStandin
  config: Awaited<ReturnType<typeof startTestMerchant>>['config']
}

async function wechatWallet(): Promise<WechatWallet> {
  let clock: () => Date = () => new Date()
  const { standin, config } = await startTestMerchant({ now: () => clock() })
  closeAfter(() => standin.stop())
  const world = await walletWorld({ config: { wechatpay: config, publicUrl: PUBLIC_URL } })
  clock = world.clock.now
  return { world, standin, config }
}

/** What WeChat login gives an account: its openid under the mini-program's AppID. */
async function loggedInWithWechat(world: WalletWorld, user: TestUser): Promise<string> {
  const openid = `oExp${user.user.id.replaceAll('-', '').slice(0, 24)}`
  await world.app.db
    .updateTable('users')
    .set({ wechat_openid: openid })
    .where('id', '=', user.user.id)
    .execute()
  return openid
}

/** A certified expert with a WeChat login, whose WeChat real name is their ID card's. */
async function wechatExpert(
  { world, standin }: WechatWallet,
  name = '李专家',
): Promise<{ doctor: TestUser; openid: string }> {
  const doctor = await walletExpert(world, name)
  const openid = await loggedInWithWechat(world, doctor)
  standin.realNames.set(openid, name)
  return { doctor, openid }
}

const notify = (world: WalletWorld, notification: RawNotification) =>
  world.app.inject({
    method: 'POST',
    url: TRANSFER_NOTIFY_PATH,
    headers: {
      ...(notification.headers as Record<string, string>),
      'content-type': 'application/json',
    },
    payload: notification.rawBody,
  })

const countTransfers = async (world: WalletWorld, withdrawalId: string) =>
  (
    await world.app.db
      .selectFrom('ledger_transfers')
      .select('kind')
      .where('withdrawal_id', '=', withdrawalId)
      .orderBy('kind')
      .execute()
  ).map((row) => row.kind)

const withdrawal = async (world: WalletWorld, doctor: TestUser, id: string) => {
  const res = await world.call(doctor, 'GET', `/main/wallet/withdrawals/${id}`)
  assert.equal(res.status, 200, res.error ?? '')
  return res.data
}

/** The expert taps 确认收款: the app's parameters, then wx.requestMerchantTransfer at WeChat. */
async function userConfirms(
  { world, standin }: WechatWallet,
  doctor: TestUser,
  id: string,
  billNo: string,
) {
  const confirm = await world.call(doctor, 'POST', `/main/wallet/withdrawals/${id}/confirm`)
  assert.equal(confirm.status, 200, confirm.error ?? '')
  assert.equal(confirm.data.kind, 'wechat')
  return standin.confirmTransfer(billNo, {
    mchId: confirm.data.mchId,
    appId: confirm.data.appId,
    packageInfo: confirm.data.packageInfo,
  })
}

test('商家转账 end to end: WAIT_USER_CONFIRM → 确认收款 → signed notification → 已到账, posted once; duplicates and forgeries change nothing', async () => {
  const wx = await wechatWallet()
  const { world, standin } = wx
  assert.equal(world.app.providers.transfers.name, 'wechatpay', 'main picks 商家转账')
  const { doctor, openid } = await wechatExpert(wx)
  await creditIncome(world, doctor.user.id, 50_000)

  const overview = await balances(world, doctor)
  assert.equal(overview.availableFen, 50_000)

  const made = await withdraw(world, doctor, '120.5')
  assert.equal(made.status, 200, made.error ?? '')
  assert.equal(made.data.state, 'confirming')
  assert.equal(made.data.stateLabel, '待确认收款')
  assert.equal(made.data.canConfirm, true)
  const billNo = made.data.billNo as string
  const bill = standin.transfers.get(billNo)!
  assert.equal(bill.state, 'WAIT_USER_CONFIRM')
  assert.equal(bill.openid, openid)
  assert.equal(bill.userName, '李专家', 'the real name, encrypted for WeChat')
  assert.equal(bill.transfer_amount, 12_050)
  assert.equal(bill.transfer_scene_id, '1005')
  assert.equal(bill.notify_url, `${PUBLIC_URL}${TRANSFER_NOTIFY_PATH}`)
  assert.equal(bill.requests, 1)
  let wallet = await balances(world, doctor)
  assert.equal(wallet.availableFen, 50_000 - 12_050)
  assert.equal(wallet.withdrawingFen, 12_050)
  await world.assertLedger()

  const confirm = await world.call(
    doctor,
    'POST',
    `/main/wallet/withdrawals/${made.data.id}/confirm`,
  )
  assert.equal(confirm.status, 200, confirm.error ?? '')
  assert.deepEqual(
    { kind: confirm.data.kind, mchId: confirm.data.mchId, appId: confirm.data.appId },
    { kind: 'wechat', mchId: TEST_MCHID, appId: TEST_APPID },
  )
  assert.equal(confirm.data.packageInfo, bill.package_info)
  standin.confirmTransfer(billNo, confirm.data)
  assert.equal(bill.state, 'TRANSFERING')

  const notification = standin.completeTransfer(billNo, 'SUCCESS')
  // Tampered and forged first: refused, nothing changes.
  const forgeries = [
    standin.transferNotification(billNo, { tamperCiphertext: true }),
    standin.transferNotification(billNo, { signWith: stranger.privateKey }),
    standin.transferNotification(billNo, { resource: { mchid: '1900000999' } }),
    standin.transferNotification(billNo, { resource: { transfer_amount: 1 } }),
    { headers: notification.headers, rawBody: notification.rawBody.replace('"id":"', '"id":"x') },
  ]
  for (const forged of forgeries) {
    const res = await notify(world, forged)
    assert.ok([400, 401].includes(res.statusCode), `${res.statusCode} ${res.body}`)
  }
  assert.equal((await withdrawal(world, doctor, made.data.id)).state, 'confirming')
  assert.deepEqual(await countTransfers(world, made.data.id), ['withdraw-hold'])
  assert.deepEqual(await walletMessages(world, doctor.user.id), [])

  // WeChat delivers the genuine one many times at once, while the expert taps 刷新 and the job
  // asks (both find SUCCESS by query), and again later.
  await world.advance(60_000, doctor)
  const [answers] = await Promise.all([
    Promise.all(Array.from({ length: 10 }, () => notify(world, notification))),
    Promise.all(
      Array.from({ length: 3 }, () =>
        world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`),
      ),
    ),
    world.drainWallet(),
  ])
  assert.deepEqual([...new Set(answers.map((res) => res.statusCode))], [204])
  assert.equal((await notify(world, notification)).statusCode, 204)
  const paid = await withdrawal(world, doctor, made.data.id)
  assert.equal(paid.state, 'paid')
  assert.equal(paid.stateLabel, '已到账')
  assert.ok(paid.paidAt)
  assert.deepEqual(await countTransfers(world, made.data.id), ['withdraw-hold', 'withdraw-paid'])
  assert.equal(standin.payouts(billNo), 1)
  wallet = await balances(world, doctor)
  assert.equal(wallet.availableFen, 50_000 - 12_050)
  assert.equal(wallet.withdrawingFen, 0)
  await world.assertLedger()

  // 刷新 and the job afterwards change nothing.
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  await world.advance(60_000, doctor)
  await world.drainWallet()
  assert.deepEqual(await countTransfers(world, made.data.id), ['withdraw-hold', 'withdraw-paid'])

  // 我的消息: one notice, opening the withdrawal.
  const told = await walletMessages(world, doctor.user.id)
  assert.equal(told.length, 1, JSON.stringify(told))
  assert.equal(told[0]!.title, '提现已到账')
  assert.match(told[0]!.body, /120\.50/)
  assert.deepEqual(told[0]!.link, { route: 'withdrawal', params: { id: made.data.id } })
  await world.assertLedger()
})

test('without a WeChat login the expert is told before anything is held: 请在微信小程序中登录后再提现到微信零钱', async () => {
  const wx = await wechatWallet()
  const { world, standin } = wx
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 10_000)

  const quote = await world.call(doctor, 'GET', '/main/wallet/withdrawals/quote?amount=20')
  assert.equal(quote.status, 200, quote.error ?? '')
  assert.equal(quote.data.refused, WALLET_MESSAGES.wechatLoginRequired)
  const made = await withdraw(world, doctor, '20')
  assert.equal(made.status, 400)
  assert.equal(made.error, '请在微信小程序中登录后再提现到微信零钱')
  const rows = await world.app.db.selectFrom('withdrawals').select('id').execute()
  assert.equal(rows.length, 0, 'nothing held')
  assert.equal(standin.transfers.size, 0, 'WeChat never asked')
  assert.equal((await balances(world, doctor)).availableFen, 10_000)

  // Logged in with WeChat, the same withdrawal goes.
  await loggedInWithWechat(world, doctor)
  const again = await withdraw(world, doctor, '20')
  assert.equal(again.status, 200, again.error ?? '')
  assert.equal(again.data.state, 'confirming')
  await world.assertLedger()
})

test('a FAIL bill (the WeChat real name is another) returns the money once with WeChat’s reason, however notification, 刷新 and the job race', async () => {
  const wx = await wechatWallet()
  const { world, standin } = wx
  const { doctor, openid } = await wechatExpert(wx)
  standin.realNames.set(openid, '李四') // the WeChat account's real name is not the ID card's
  await creditIncome(world, doctor.user.id, 30_000)
  const made = await withdraw(world, doctor, '99.99')
  assert.equal(made.status, 200, made.error ?? '')
  const billNo = made.data.billNo as string
  const bill = await userConfirms(wx, doctor, made.data.id, billNo)
  assert.equal(bill.state, 'FAIL')
  assert.equal(bill.fail_reason, 'NAME_NOT_CORRECT')
  const notification = standin.transferNotification(billNo)

  await world.advance(60_000, doctor) // the job is due too
  await Promise.all([
    ...Array.from({ length: 5 }, () => notify(world, notification)),
    ...Array.from({ length: 3 }, () =>
      world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`),
    ),
    world.drainWallet(),
  ])
  await world.drainWallet()
  const failed = await withdrawal(world, doctor, made.data.id)
  assert.equal(failed.state, 'failed')
  assert.equal(failed.stateLabel, '失败 — 已退回余额')
  assert.equal(failed.reason, '收款人姓名与微信实名不一致')
  assert.deepEqual(await countTransfers(world, made.data.id), ['withdraw-hold', 'withdraw-void'])
  assert.equal(standin.payouts(billNo), 0)
  const wallet = await balances(world, doctor)
  assert.equal(wallet.availableFen, 30_000)
  assert.equal(wallet.withdrawingFen, 0)
  assert.equal(wallet.limits.leftTodayFen, 2_000_000)
  const told = await walletMessages(world, doctor.user.id)
  assert.equal(told.length, 1, JSON.stringify(told))
  assert.equal(told[0]!.title, '提现失败，已退回余额')
  assert.match(told[0]!.body, /99\.99/)
  assert.match(told[0]!.body, /收款人姓名与微信实名不一致/)
  assert.equal((await notify(world, notification)).statusCode, 204)
  assert.equal((await walletMessages(world, doctor.user.id)).length, 1)
  await world.assertLedger()
})

test('a lost answer on create: the job asks again with the same out_bill_no, the expert confirms, WeChat pays once', async () => {
  const wx = await wechatWallet()
  const { world, standin, config } = wx
  // The same merchant with a short timeout, so the lost answer costs a second, not ten.
  world.useTransfers(() =>
    wechatPayTransferProvider(config, { log: quiet, now: world.clock.now, timeoutMs: 1_000 }),
  )
  const { doctor } = await wechatExpert(wx)
  await creditIncome(world, doctor.user.id, 20_000)
  standin.failNext('lostAnswer')
  const made = await withdraw(world, doctor, '50')
  assert.equal(made.status, 200, made.error ?? '')
  assert.equal(made.data.state, 'paying', 'the answer never came: still 打款中')
  const billNo = made.data.billNo as string
  assert.equal(standin.transfers.get(billNo)?.state, 'WAIT_USER_CONFIRM', 'WeChat made the bill')
  assert.equal(standin.transfers.size, 1)

  await world.advance(60_000, doctor)
  await world.drainWallet()
  const waiting = await withdrawal(world, doctor, made.data.id)
  assert.equal(waiting.state, 'confirming')
  assert.equal(waiting.billNo, billNo, 'never a new bill number')
  assert.equal(waiting.canConfirm, true, 'the expert can confirm the bill WeChat made')
  assert.equal(standin.transfers.size, 1)
  assert.ok(standin.transfers.get(billNo)!.requests >= 2, 'asked again with the same number')

  await userConfirms(wx, doctor, made.data.id, billNo)
  const notification = standin.completeTransfer(billNo, 'SUCCESS')
  assert.equal((await notify(world, notification)).statusCode, 204)
  await world.advance(60_000, doctor)
  await world.drainWallet()
  const paid = await withdrawal(world, doctor, made.data.id)
  assert.equal(paid.state, 'paid')
  assert.equal(standin.transfers.size, 1)
  assert.equal(standin.payouts(billNo), 1, 'paid once')
  assert.deepEqual(await countTransfers(world, made.data.id), ['withdraw-hold', 'withdraw-paid'])
  assert.equal((await walletMessages(world, doctor.user.id)).length, 1)
  await world.assertLedger()
})

test('NOT_ENOUGH (the 运营账户 is empty) voids the hold with the Chinese reason; after a top-up the next one goes', async () => {
  const wx = await wechatWallet()
  const { world, standin } = wx
  const { doctor } = await wechatExpert(wx)
  await creditIncome(world, doctor.user.id, 20_000)
  standin.balances.OPERATION = 0
  const made = await withdraw(world, doctor, '30')
  assert.equal(made.status, 200, made.error ?? '')
  assert.equal(made.data.state, 'failed')
  assert.equal(made.data.reason, '提现失败：平台付款账户余额不足，本次提现未发出，金额已退回余额')
  assert.equal(standin.transfers.size, 0)
  assert.deepEqual(await countTransfers(world, made.data.id), ['withdraw-hold', 'withdraw-void'])
  const wallet = await balances(world, doctor)
  assert.equal(wallet.availableFen, 20_000)
  assert.equal(wallet.withdrawingFen, 0)
  const told = await walletMessages(world, doctor.user.id)
  assert.equal(told.length, 1, JSON.stringify(told))
  assert.equal(told[0]!.title, '提现失败，已退回余额')
  assert.match(told[0]!.body, /平台付款账户余额不足/)
  // The job afterwards changes nothing.
  await world.advance(60_000, doctor)
  await world.drainWallet()
  assert.deepEqual(await countTransfers(world, made.data.id), ['withdraw-hold', 'withdraw-void'])
  await world.assertLedger()

  standin.topUp(1_000_000)
  const next = await withdraw(world, doctor, '30')
  assert.equal(next.status, 200, next.error ?? '')
  assert.equal(next.data.state, 'confirming')
  await world.assertLedger()
})

test('WeChat’s refusals and failure reasons are shown in Chinese, never a code or English', async () => {
  const wx = await wechatWallet()
  const { world, standin } = wx
  const { doctor } = await wechatExpert(wx)
  await creditIncome(world, doctor.user.id, 100_000)

  const cases: { code: string; status: number; reason: string }[] = [
    {
      code: 'NO_AUTH',
      status: 403,
      reason: '提现失败：平台尚未开通微信商家转账，本次提现未发出，金额已退回余额',
    },
    {
      code: 'PARAM_ERROR',
      status: 400,
      reason: '提现失败：提现信息不符合微信支付的要求，本次未发出，金额已退回余额',
    },
    {
      code: 'SOMETHING_NEW',
      status: 400,
      reason: '提现失败：微信支付拒绝了这笔提现，本次未发出，金额已退回余额',
    },
  ]
  for (const one of cases) {
    standin.failNext({ status: one.status, code: one.code, message: 'request refused' })
    const made = await withdraw(world, doctor, '10')
    assert.equal(made.status, 200, made.error ?? '')
    assert.equal(made.data.state, 'failed', one.code)
    assert.equal(made.data.reason, one.reason, one.code)
  }

  // FAIL reasons WeChat names with a code we do not list, or none: Chinese all the same.
  for (const failReason of ['OTHERS', 'SOME_FUTURE_REASON', 'OVERDUE_CLOSE']) {
    const made = await withdraw(world, doctor, '10')
    assert.equal(made.data.state, 'confirming')
    const notification = standin.completeTransfer(made.data.billNo, 'FAIL', { failReason })
    assert.equal((await notify(world, notification)).statusCode, 204)
    const failed = await withdrawal(world, doctor, made.data.id)
    assert.equal(failed.state, 'failed')
    assert.doesNotMatch(failed.reason, /[A-Za-z]/, `${failReason}: ${failed.reason}`)
  }
  // Operators still see WeChat's code.
  const listed = await world.call(world.operator, 'GET', '/main/operator/withdrawals?state=failed')
  assert.equal(listed.status, 200, listed.error ?? '')
  const codes = (listed.data.items as { providerCode: string | null }[]).map((w) => w.providerCode)
  for (const code of ['NO_AUTH', 'PARAM_ERROR', 'SOMETHING_NEW', 'OTHERS', 'SOME_FUTURE_REASON'])
    assert.ok(codes.includes(code), code)
  await world.assertLedger()
})

test('an operator’s 驳回 returns the money and tells the expert once; 通过 sends the bill with the real name', async () => {
  const wx = await wechatWallet()
  const { world, standin } = wx
  const { doctor } = await wechatExpert(wx)
  await creditIncome(world, doctor.user.id, 600_000)
  const big = await withdraw(world, doctor, '2500')
  assert.equal(big.status, 200, big.error ?? '')
  assert.equal(big.data.state, 'reviewing')
  const decide = (id: string, body: object) =>
    world.call(world.operator, 'POST', `/main/operator/withdrawals/${id}/decision`, body)
  const [a, b] = await Promise.all([
    decide(big.data.id, { approve: false, reason: '收款信息需核实' }),
    decide(big.data.id, { approve: false, reason: '收款信息需核实' }),
  ])
  assert.deepEqual([a.status, b.status].sort(), [200, 409])
  const rejected = await withdrawal(world, doctor, big.data.id)
  assert.equal(rejected.state, 'failed')
  assert.equal(rejected.reason, '审核未通过：收款信息需核实')
  let told = await walletMessages(world, doctor.user.id)
  assert.equal(told.length, 1, JSON.stringify(told))
  assert.equal(told[0]!.title, '提现审核未通过，已退回余额')
  assert.match(told[0]!.body, /收款信息需核实/)
  assert.equal(standin.transfers.size, 0)
  assert.equal((await balances(world, doctor)).availableFen, 600_000)

  const second = await withdraw(world, doctor, '2500')
  assert.equal(second.data.state, 'reviewing')
  const approved = await decide(second.data.id, { approve: true })
  assert.equal(approved.status, 200, approved.error ?? '')
  const bill = standin.transfers.get(second.data.billNo)!
  assert.equal(bill.state, 'WAIT_USER_CONFIRM')
  assert.equal(bill.userName, '李专家')
  const tax = second.data.taxFen as number
  assert.equal(bill.transfer_amount, 250_000 - tax)
  await userConfirms(wx, doctor, second.data.id, second.data.billNo)
  assert.equal((await notify(world, standin.completeTransfer(second.data.billNo))).statusCode, 204)
  assert.equal((await withdrawal(world, doctor, second.data.id)).state, 'paid')
  told = await walletMessages(world, doctor.user.id)
  assert.deepEqual(
    told.map((m) => m.title).sort(),
    ['提现审核未通过，已退回余额', '提现已到账'].sort(),
  )
  await world.assertLedger()
})

test('对账 against the stand-in’s 资金账单 of the day: no difference; a doctored statement or ledger shows it; checkLedger reports it', async () => {
  const wx = await wechatWallet()
  const { world, standin } = wx
  const { doctor, openid } = await wechatExpert(wx)
  await creditIncome(world, doctor.user.id, 100_000)
  const day = '2030-06-01' // the test clock's China day (16:00 there)

  // Paid: two; failed at WeChat: one (no line in the 资金账单); refused: one.
  const paidIds: { id: string; billNo: string }[] = []
  for (const amount of ['100', '23.45']) {
    const made = await withdraw(world, doctor, amount)
    await userConfirms(wx, doctor, made.data.id, made.data.billNo)
    assert.equal((await notify(world, standin.completeTransfer(made.data.billNo))).statusCode, 204)
    paidIds.push({ id: made.data.id, billNo: made.data.billNo })
  }
  standin.realNames.set(openid, '王五')
  const failed = await withdraw(world, doctor, '10')
  await userConfirms(wx, doctor, failed.data.id, failed.data.billNo)
  await notify(world, standin.transferNotification(failed.data.billNo))
  assert.equal((await withdrawal(world, doctor, failed.data.id)).state, 'failed')
  standin.realNames.set(openid, '李专家')

  // Same day: WeChat has no statement yet.
  const early = await world.call(world.operator, 'POST', '/main/operator/wallet/reconciliation', {
    date: day,
  })
  assert.equal(early.status, 503, early.error ?? '')

  await world.advance(20 * 3_600_000, doctor, world.operator) // 12:00 the next day
  const reconcile = () =>
    world.call(world.operator, 'POST', '/main/operator/wallet/reconciliation', { date: day })
  const clean = await reconcile()
  assert.equal(clean.status, 200, clean.error ?? '')
  assert.equal(clean.data.providerCount, 2)
  assert.deepEqual(clean.data.differences, [])
  await world.assertLedger()

  // The statement doctored: a line's amount changed, one line gone, a stranger's bill added.
  const lines = standin.fundFlows
  const first = lines.find((line) => line.voucher === paidIds[0]!.billNo)!
  const second = lines.find((line) => line.voucher === paidIds[1]!.billNo)!
  first.fen += 1
  lines.splice(lines.indexOf(second), 1)
  lines.push({ ...first, voucher: 'STRANGER0000000001', fen: 500 })
  const doctored = await reconcile()
  assert.equal(doctored.status, 200, doctored.error ?? '')
  assert.deepEqual(
    (doctored.data.differences as { outBillNo: string; problem: string }[])
      .map((d) => [d.outBillNo, d.problem])
      .sort(),
    [
      [paidIds[0]!.billNo, 'amount'],
      [paidIds[1]!.billNo, 'missing-at-provider'],
      ['STRANGER0000000001', 'missing-in-ledger'],
    ].sort(),
  )
  const { checkLedger } = await import('../../src/domain/ledger')
  const check = await checkLedger(world.app.db, world.clock.now())
  assert.equal(check.problems.length, 3, check.problems.join('\n'))
  assert.ok(check.problems.every((problem) => problem.includes(day)))

  // Restored: clean again.
  first.fen -= 1
  lines.pop()
  lines.push(second)
  assert.deepEqual((await reconcile()).data.differences, [])
  await world.assertLedger()

  // Our side doctored: a paid withdrawal recorded as failed.
  await world.app.db
    .updateTable('withdrawals')
    .set({ state: 'failed' })
    .where('id', '=', paidIds[1]!.id)
    .execute()
  const ours = await reconcile()
  assert.deepEqual(
    (ours.data.differences as { outBillNo: string; problem: string }[]).map((d) => [
      d.outBillNo,
      d.problem,
    ]),
    [[paidIds[1]!.billNo, 'state']],
  )
})

test('a refusal after an unclear first attempt, with the bill still unknown, keeps the hold for the job; the next run returns it once', async () => {
  const wx = await wechatWallet()
  const { world, standin, config } = wx
  const wechat = wechatPayTransferProvider(config, { log: quiet, now: world.clock.now })
  let queries = 0
  let failSecondQuery = true
  // WeChat's own answers, but the wallet's confirming query after the refusal is unclear once.
  world.useTransfers(() => ({
    ...wechat,
    queryTransfer: async (outBillNo) => {
      queries += 1
      if (failSecondQuery && queries === 2) throw new TransferUnclear('no answer')
      return wechat.queryTransfer(outBillNo)
    },
  }))
  const { doctor } = await wechatExpert(wx)
  await creditIncome(world, doctor.user.id, 20_000)
  standin.failNext('error500', 1, /transfer-bills$/)
  const made = await withdraw(world, doctor, '40')
  assert.equal(made.data.state, 'paying', 'unclear: still 打款中')
  assert.equal(standin.transfers.size, 0)
  standin.balances.OPERATION = 0

  // The job: no bill (query 1), create refused NOT_ENOUGH, the wallet's query (2) unclear.
  await world.advance(60_000, doctor)
  await world.drainWallet()
  assert.equal(queries, 2)
  let now = await withdrawal(world, doctor, made.data.id)
  assert.equal(now.state, 'paying', 'the hold stays while the bill is unknown')
  assert.equal((await balances(world, doctor)).withdrawingFen, 4_000)
  const queued = await world.app.db
    .selectFrom('ingest_jobs')
    .select('status')
    .where('subject_id', '=', made.data.id)
    .where('status', '=', 'queued')
    .execute()
  assert.equal(queued.length, 1, 'the job asks again later')
  await world.assertLedger()

  failSecondQuery = false
  await world.advance(10 * 60_000, doctor)
  await world.drainWallet()
  now = await withdrawal(world, doctor, made.data.id)
  assert.equal(now.state, 'failed')
  assert.equal(now.reason, '提现失败：平台付款账户余额不足，本次提现未发出，金额已退回余额')
  assert.deepEqual(await countTransfers(world, made.data.id), ['withdraw-hold', 'withdraw-void'])
  assert.equal((await balances(world, doctor)).availableFen, 20_000)
  assert.equal((await walletMessages(world, doctor.user.id)).length, 1)
  await world.assertLedger()
})

test('a bill first ACCEPTED: 刷新 finds it waiting for the expert and gets its package; 取消 there cancels it at WeChat and returns the money once', async () => {
  const wx = await wechatWallet()
  const { world, standin } = wx
  const { doctor } = await wechatExpert(wx)
  await creditIncome(world, doctor.user.id, 20_000)
  standin.transferStartState = 'ACCEPTED'
  const made = await withdraw(world, doctor, '66')
  assert.equal(made.status, 200, made.error ?? '')
  assert.equal(made.data.state, 'paying')
  assert.equal(made.data.canConfirm, false)
  const billNo = made.data.billNo as string
  standin.readyTransfer(billNo)

  const synced = await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  assert.equal(synced.status, 200, synced.error ?? '')
  assert.equal(synced.data.state, 'confirming')
  assert.equal(synced.data.canConfirm, true, 'the package was had with the same bill number')
  assert.equal(standin.transfers.size, 1)
  const confirm = await world.call(
    doctor,
    'POST',
    `/main/wallet/withdrawals/${made.data.id}/confirm`,
  )
  assert.equal(confirm.data.packageInfo, standin.transfers.get(billNo)!.package_info)

  // The expert changes their mind before confirming: WeChat cancels the bill.
  const cancelled = await world.call(
    doctor,
    'POST',
    `/main/wallet/withdrawals/${made.data.id}/cancel`,
  )
  assert.equal(cancelled.status, 200, cancelled.error ?? '')
  assert.equal(standin.transfers.get(billNo)!.state, 'CANCELING')
  assert.equal(cancelled.data.state, 'confirming', 'until WeChat says CANCELLED')
  const notification = standin.completeTransfer(billNo, 'CANCELLED')
  await Promise.all([notify(world, notification), notify(world, notification)])
  const after = await withdrawal(world, doctor, made.data.id)
  assert.equal(after.state, 'cancelled')
  assert.equal(after.stateLabel, '已取消')
  assert.deepEqual(await countTransfers(world, made.data.id), ['withdraw-hold', 'withdraw-void'])
  assert.equal((await balances(world, doctor)).availableFen, 20_000)
  assert.deepEqual(
    (await walletMessages(world, doctor.user.id)).map((m) => m.title),
    ['提现已取消，已退回余额'],
  )
  assert.equal(standin.payouts(billNo), 0)
  await world.assertLedger()
})
