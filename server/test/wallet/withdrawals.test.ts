import assert from 'node:assert/strict'
import { test } from 'node:test'
import { WALLET_MESSAGES } from '@contract/main/wallet'
import { smsCode } from '../domain/profile/support'
import { balances, clientId, creditIncome, walletExpert, walletWorld, withdraw } from './support'

/*
 * A withdrawal through the 演示提现 provider, over HTTP: the hold, the provider's states (打款中 →
 * 待确认收款 → 确认收款 → 已到账), the ledger after each step; a failure at the provider (an amount
 * ending in .44) comes back to the balance once with its reason; a retried request is the same
 * withdrawal; a refused re-authentication writes nothing; 取消 while waiting for confirmation.
 */

test('a withdrawal is held, confirmed and paid: 打款中 → 待确认收款 → 已到账, the ledger holds at each step', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 50_000)

  const quote = await world.call(doctor, 'GET', '/main/wallet/withdrawals/quote?amount=120.5')
  assert.equal(quote.status, 200, quote.error ?? '')
  assert.equal(quote.data.grossFen, 12_050)
  assert.equal(quote.data.taxFen, 0)
  assert.equal(quote.data.netFen, 12_050)
  assert.equal(quote.data.refused, null)
  assert.equal(quote.data.needsReview, false)

  const id = clientId()
  const made = await withdraw(world, doctor, '120.5', { clientId: id })
  assert.equal(made.status, 200, made.error ?? '')
  assert.equal(made.data.state, 'paying')
  assert.equal(made.data.stateLabel, '打款中')
  assert.equal(made.data.targetLabel, '微信零钱（李**）')
  assert.match(made.data.billNo, /^[A-Z0-9]{5,32}$/)
  let wallet = await balances(world, doctor)
  assert.equal(wallet.availableFen, 50_000 - 12_050)
  assert.equal(wallet.withdrawingFen, 12_050)
  assert.equal(wallet.limits.leftTodayFen, 2_000_000 - 12_050)
  await world.assertLedger()

  // The same clientId again: the same withdrawal, nothing held twice.
  const again = await withdraw(world, doctor, '120.5', { clientId: id })
  assert.equal(again.data.id, made.data.id)
  assert.equal((await balances(world, doctor)).withdrawingFen, 12_050)

  // Another one while this is in flight: one at a time.
  const second = await withdraw(world, doctor, '10')
  assert.equal(second.status, 409)
  assert.equal(second.error, WALLET_MESSAGES.oneAtATime)

  // The demo bill asks for confirmation after 2 s.
  await world.advance(2_500)
  const synced = await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  assert.equal(synced.data.state, 'confirming')
  assert.equal(synced.data.canConfirm, true)
  assert.equal(synced.data.canCancel, true)

  const confirmed = await world.call(
    doctor,
    'POST',
    `/main/wallet/withdrawals/${made.data.id}/confirm`,
  )
  assert.equal(confirmed.status, 200, confirmed.error ?? '')
  assert.equal(confirmed.data.kind, 'demo')
  assert.equal(confirmed.data.withdrawal.state, 'paying')

  await world.advance(3_500)
  await world.advance(60_000) // the job's first look
  await world.drainWallet()
  const paid = await world.call(doctor, 'GET', `/main/wallet/withdrawals/${made.data.id}`)
  assert.equal(paid.data.state, 'paid')
  assert.equal(paid.data.stateLabel, '已到账')
  assert.ok(paid.data.paidAt)
  wallet = await balances(world, doctor)
  assert.equal(wallet.availableFen, 50_000 - 12_050)
  assert.equal(wallet.withdrawingFen, 0)
  await world.assertLedger()

  const list = await world.call(doctor, 'GET', '/main/wallet/withdrawals')
  assert.equal(list.data.total, 1)
  assert.equal(list.data.items[0].id, made.data.id)

  // 交易记录: the hold (可提现 −120.50) and the payout (提现中 −120.50); no tax line at 0 tax.
  const trades = await world.call(doctor, 'GET', '/main/wallet/trades?kind=withdrawal')
  assert.deepEqual(
    trades.data.items.map((t: { title: string; amountFen: number; accountLabel: string }) => [
      t.title,
      t.amountFen,
      t.accountLabel,
    ]),
    [
      ['提现到账 · 微信零钱（李**）', -12_050, '提现中'],
      ['提现至微信零钱（李**）', -12_050, '可提现'],
    ],
  )
})

test('a failure at the provider (an amount ending in .44) returns the money once, with the reason', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 10_000)
  const made = await withdraw(world, doctor, '12.44')
  assert.equal(made.status, 200, made.error ?? '')
  await world.advance(2_500)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/confirm`)
  await world.advance(3_500)
  const failed = await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  assert.equal(failed.data.state, 'failed')
  assert.equal(failed.data.stateLabel, '失败 — 已退回余额')
  assert.equal(failed.data.reason, '演示失败')
  const wallet = await balances(world, doctor)
  assert.equal(wallet.availableFen, 10_000)
  assert.equal(wallet.withdrawingFen, 0)
  assert.equal(wallet.limits.leftTodayFen, 2_000_000, 'the day’s limit is given back')
  await world.assertLedger()
  const returned = await world.call(doctor, 'GET', '/main/wallet/trades?kind=withdrawal-return')
  assert.equal(returned.data.items[0].amountFen, 1_244)
  assert.equal(returned.data.items[0].accountLabel, '可提现')
  // Failed, the expert may withdraw again at once.
  assert.equal((await withdraw(world, doctor, '1')).status, 200)
})

test('re-authentication: none, a wrong password or a wrong code is refused and writes nothing; an SMS code works', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 10_000)
  const none = await world.call(doctor, 'POST', '/main/wallet/withdrawals', {
    amount: '10',
    clientId: clientId(),
  })
  assert.equal(none.status, 400)
  assert.equal(none.error, WALLET_MESSAGES.reauthRequired)
  const wrong = await withdraw(world, doctor, '10', { password: 'not-my-pass1' })
  assert.equal(wrong.status, 400)
  assert.equal(wrong.error, WALLET_MESSAGES.reauthFailed)
  const badCode = await withdraw(world, doctor, '10', { smsCode: '000000' })
  assert.equal(badCode.status, 400)
  const count = async (table: 'withdrawals' | 'ledger_transfers' | 'wallet_day_totals') =>
    Number(
      (
        await world.app.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  assert.equal(await count('withdrawals'), 0)
  assert.equal(await count('wallet_day_totals'), 0)
  assert.equal(await count('ledger_transfers'), 2, 'only the income')
  assert.equal((await balances(world, doctor)).availableFen, 10_000)

  const code = await smsCode(world.app.db, doctor.mobile!, 'verify-old', world.clock.now())
  const byCode = await withdraw(world, doctor, '10', { smsCode: code })
  assert.equal(byCode.status, 200, byCode.error ?? '')
  await world.assertLedger()
})

test('the amount: format, at least ¥1, at most the balance; the quote says why before confirming', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 5_000)
  for (const amount of ['1.234', '-1', 'abc', '01']) {
    const res = await withdraw(world, doctor, amount)
    assert.equal(res.status, 400, amount)
    assert.equal(res.error, WALLET_MESSAGES.amountFormat, amount)
  }
  const small = await withdraw(world, doctor, '0.99')
  assert.equal(small.error, WALLET_MESSAGES.amountTooSmall)
  const over = await withdraw(world, doctor, '50.01')
  assert.equal(over.status, 400)
  assert.equal(over.error, WALLET_MESSAGES.amountOverBalance)
  const quote = await world.call(doctor, 'GET', '/main/wallet/withdrawals/quote?amount=50.01')
  assert.equal(quote.data.refused, WALLET_MESSAGES.amountOverBalance)
  assert.equal(
    Number(
      (
        await world.app.db
          .selectFrom('withdrawals')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    0,
  )
  const all = await withdraw(world, doctor, '50')
  assert.equal(all.status, 200, all.error ?? '')
  assert.equal((await balances(world, doctor)).availableFen, 0)
  await world.assertLedger()
})

test('取消 while waiting for confirmation: the provider cancels the bill, the money comes back once', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 10_000)
  const made = await withdraw(world, doctor, '20')
  // 打款中 cannot be cancelled.
  const early = await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/cancel`)
  assert.equal(early.status, 409)
  assert.equal(early.error, WALLET_MESSAGES.cannotCancel)
  await world.advance(2_500)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  const [a, b] = await Promise.all([
    world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/cancel`),
    world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/cancel`),
  ])
  assert.ok([a.status, b.status].includes(200))
  const after = await world.call(doctor, 'GET', `/main/wallet/withdrawals/${made.data.id}`)
  assert.equal(after.data.state, 'cancelled')
  assert.equal(after.data.stateLabel, '已取消')
  assert.equal((await balances(world, doctor)).availableFen, 10_000)
  await world.assertLedger()
})

test('an expert with money in the wallet cannot delete the account until it is paid out', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 5_000)
  const code = await smsCode(world.app.db, doctor.mobile!, 'delete', world.clock.now())
  const refused = await world.call(doctor, 'POST', '/main/account/delete', { code })
  assert.equal(refused.status, 409)
  assert.equal(
    refused.error,
    '您的钱包还有待结算或可提现的收入，或有提现正在处理。请提现完成后再注销账号',
  )
  const made = await withdraw(world, doctor, '50')
  await world.advance(2_500)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/confirm`)
  await world.advance(3_500)
  const paid = await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  assert.equal(paid.data.state, 'paid')
  const again = await smsCode(world.app.db, doctor.mobile!, 'delete', world.clock.now())
  assert.equal(
    (await world.call(doctor, 'POST', '/main/account/delete', { code: again })).status,
    200,
  )
  await world.assertLedger()
})
