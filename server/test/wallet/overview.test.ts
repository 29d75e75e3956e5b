import assert from 'node:assert/strict'
import { test } from 'node:test'
import { signUp } from '../domain/profile/support'
import { patient } from '../consultations/support'
import { balances, walletExpert, walletWorld, withdraw, adoptedConsultation } from './support'

/*
 * 我的钱包 and 交易记录 add up with the ledger, for an expert whose income comes from real
 * consultations (paid with 演示支付, answered, adopted, one refunded in part after a 投诉, settled
 * after the 7-day window) and who withdrew part of it: the balances are the ledger's; the rows on
 * 可提现 add up to the available balance; every row's entries add up, per account, to the balances;
 * income after refunds is the total income; filters by kind and month and paging work; a
 * consultation's row opens its price split.
 */

const HOUR = 3600_000

test('balances, income and 交易记录 add up with the ledger for income from real consultations', async () => {
  const world = await walletWorld()
  const asker = await patient(world)
  const doctor = await walletExpert(world)
  const operator = await signUp(world.app.db, world.clock.now(), { role: 'operator' })
  const a = await adoptedConsultation(world, asker, doctor)
  const b = await adoptedConsultation(world, asker, doctor)
  // 投诉 after completion; the operator refunds 10 元 of b: 8 元 from the expert, 2 元 from the platform.
  assert.equal(
    (await world.call(asker, 'POST', `/main/consultations/${b}/complaint`, { text: '回答太简单' }))
      .status,
    200,
  )
  const decided = await world.call(
    operator,
    'POST',
    `/main/operator/consultations/${b}/complaint`,
    {
      refundFen: 1000,
      note: '退还部分费用',
    },
  )
  assert.equal(decided.status, 200, decided.error ?? '')
  let wallet = await balances(world, doctor)
  assert.equal(wallet.pendingFen, 2400 + 2400 - 800)
  assert.equal(wallet.availableFen, 0)
  assert.equal(wallet.totalIncomeFen, 4000)
  assert.equal(wallet.monthIncomeFen, 4000)

  // After the 投诉 window both settle.
  await world.advance(8 * 24 * HOUR, asker, doctor, operator)
  // The settlement timers are jobs: on a busy machine one sweep may not take them all.
  for (let round = 0; round < 100; round += 1) {
    await world.drainJobs()
    if ((await balances(world, doctor)).pendingFen === 0) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  wallet = await balances(world, doctor)
  assert.equal(wallet.pendingFen, 0)
  assert.equal(wallet.availableFen, 4000)

  const made = await withdraw(world, doctor, '15')
  assert.equal(made.status, 200, made.error ?? '')
  await world.advance(2_500)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/confirm`)
  await world.advance(3_500)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  wallet = await balances(world, doctor)
  assert.equal(wallet.availableFen, 2500)
  assert.equal(wallet.withdrawingFen, 0)
  assert.equal(wallet.totalIncomeFen, 4000, 'a withdrawal is not income')
  await world.assertLedger()

  const all = await world.call(doctor, 'GET', '/main/wallet/trades?pageSize=50')
  assert.equal(all.status, 200, all.error ?? '')
  type Trade = {
    id: string
    kind: string
    title: string
    amountFen: number
    accountLabel: string
    consultationId: string | null
    withdrawalId: string | null
  }
  const trades = all.data.items as Trade[]
  assert.equal(all.data.total, 7)
  assert.deepEqual(trades.map((t) => t.kind).sort(), [
    'income',
    'income',
    'refund',
    'settlement',
    'settlement',
    'withdrawal',
    'withdrawal',
  ])
  const onAvailable = trades.filter((t) => t.accountLabel === '可提现')
  assert.equal(
    onAvailable.reduce((sum, t) => sum + t.amountFen, 0),
    wallet.availableFen,
    'rows on 可提现 add up to the available balance',
  )
  // Every row's entries, per account, add up to the balances.
  const perAccount: Record<string, number> = {}
  for (const trade of trades) {
    const detail = await world.call(doctor, 'GET', `/main/wallet/trades/${trade.id}`)
    assert.equal(detail.status, 200, detail.error ?? '')
    for (const entry of detail.data.entries as { accountLabel: string; amountFen: number }[])
      perAccount[entry.accountLabel] = (perAccount[entry.accountLabel] ?? 0) + entry.amountFen
  }
  assert.deepEqual(perAccount, { 待结算: 0, 可提现: 2500, 提现中: 0 })

  const income = await world.call(doctor, 'GET', '/main/wallet/trades?kind=income')
  assert.equal(income.data.total, 2)
  for (const row of income.data.items as Trade[]) {
    assert.equal(row.amountFen, 2400)
    assert.equal(row.accountLabel, '待结算')
    assert.equal(row.title, '图文咨询 · 王**')
  }
  const refund = (await world.call(doctor, 'GET', '/main/wallet/trades?kind=refund')).data
    .items[0] as Trade
  assert.equal(refund.amountFen, -800)
  assert.equal(refund.consultationId, b)
  const detail = await world.call(
    doctor,
    'GET',
    `/main/wallet/trades/${(income.data.items as Trade[]).find((t) => t.consultationId === a)!.id}`,
  )
  assert.deepEqual(detail.data.consultation, {
    id: a,
    serviceLabel: '图文咨询',
    personMasked: '王**',
    priceFen: 3000,
    platformFen: 600,
    expertFen: 2400,
    stateLabel: '已完成',
  })

  // Months are China months; paging.
  assert.equal((await world.call(doctor, 'GET', '/main/wallet/trades?month=2030-06')).data.total, 7)
  const may = await world.call(doctor, 'GET', '/main/wallet/trades?month=2030-05')
  assert.equal(may.data.total, 0)
  assert.deepEqual(may.data.items, [])
  const page3 = await world.call(doctor, 'GET', '/main/wallet/trades?pageSize=3&page=3')
  assert.equal(page3.data.total, 7)
  assert.equal(page3.data.items.length, 1)
  const past = await world.call(doctor, 'GET', '/main/wallet/trades?pageSize=3&page=9')
  assert.equal(past.data.total, 7)
  assert.deepEqual(past.data.items, [])
  assert.equal((await world.call(doctor, 'GET', '/main/wallet/trades?month=2030-13')).status, 400)
})
