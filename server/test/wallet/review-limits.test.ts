import assert from 'node:assert/strict'
import { test } from 'node:test'
import { WALLET_MESSAGES } from '@contract/main/wallet'
import {
  balances,
  creditIncome,
  walletExpert,
  walletMessages,
  walletWorld,
  withdraw,
} from './support'

/*
 * 审核 and limits. Above the review threshold a withdrawal waits (审核中) with its money held; an
 * operator approves it (then it is paid) or rejects it with a reason (the money comes back at
 * once, the reason shown); each decision is in the operators' audit log, and a second decision is
 * refused. The expert may cancel while it waits. Per transfer, per expert per day and per platform
 * per day limits refuse before anything is held, and a voided withdrawal gives its day back.
 */

const DAY = 24 * 3600_000

test('above the threshold: 审核中, held; approve pays it, reject returns it with the reason; audited', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 1_000_000)

  const quote = await world.call(doctor, 'GET', '/main/wallet/withdrawals/quote?amount=2000.01')
  assert.equal(quote.data.needsReview, true)
  const big = await withdraw(world, doctor, '2000.01')
  assert.equal(big.status, 200, big.error ?? '')
  assert.equal(big.data.state, 'reviewing')
  assert.equal(big.data.stateLabel, '审核中')
  assert.equal(big.data.canCancel, true)
  assert.equal((await balances(world, doctor)).withdrawingFen, 200_001)
  assert.equal(
    (await world.app.db.selectFrom('demo_transfer_bills').selectAll().execute()).length,
    0,
    'nothing sent to the provider before 审核',
  )

  // Only operators decide.
  const byExpert = await world.call(
    doctor,
    'POST',
    `/main/operator/withdrawals/${big.data.id}/decision`,
    {
      approve: true,
    },
  )
  assert.equal(byExpert.status, 403)
  const queue = await world.call(
    world.operator,
    'GET',
    '/main/operator/withdrawals?state=reviewing',
  )
  assert.equal(queue.status, 200, queue.error ?? '')
  assert.equal(queue.data.counts.reviewing, 1)
  assert.equal(queue.data.items[0].id, big.data.id)
  assert.equal(queue.data.items[0].expert.name, '李专家')
  assert.equal(queue.data.items[0].expert.hospitalName, '会诊测试医院')

  const noReason = await world.call(
    world.operator,
    'POST',
    `/main/operator/withdrawals/${big.data.id}/decision`,
    {
      approve: false,
    },
  )
  assert.equal(noReason.status, 400)
  assert.equal(noReason.error, WALLET_MESSAGES.rejectReasonRequired)

  const approved = await world.call(
    world.operator,
    'POST',
    `/main/operator/withdrawals/${big.data.id}/decision`,
    {
      approve: true,
    },
  )
  assert.equal(approved.status, 200, approved.error ?? '')
  assert.equal(approved.data.state, 'paying')
  const twice = await world.call(
    world.operator,
    'POST',
    `/main/operator/withdrawals/${big.data.id}/decision`,
    {
      approve: false,
      reason: '重复',
    },
  )
  assert.equal(twice.status, 409)
  assert.equal(
    (await world.app.db.selectFrom('demo_transfer_bills').selectAll().execute()).length,
    1,
    'sent to the provider once approved',
  )
  await world.advance(2_500)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${big.data.id}/sync`)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${big.data.id}/confirm`)
  await world.advance(600_000)
  await world.drainWallet()
  const paid = await world.call(doctor, 'GET', `/main/wallet/withdrawals/${big.data.id}`)
  assert.equal(paid.data.state, 'paid')
  await world.assertLedger()

  // Rejected: back at once, with the reason.
  const second = await withdraw(world, doctor, '3000')
  assert.equal(second.data.state, 'reviewing')
  const rejected = await world.call(
    world.operator,
    'POST',
    `/main/operator/withdrawals/${second.data.id}/decision`,
    {
      approve: false,
      reason: '收款信息待核实',
    },
  )
  assert.equal(rejected.status, 200, rejected.error ?? '')
  assert.equal(rejected.data.state, 'failed')
  const seen = await world.call(doctor, 'GET', `/main/wallet/withdrawals/${second.data.id}`)
  assert.equal(seen.data.reason, '审核未通过：收款信息待核实')
  const wallet = await balances(world, doctor)
  assert.equal(wallet.withdrawingFen, 0)
  assert.equal(wallet.availableFen, 1_000_000 - 200_001)
  await world.assertLedger()

  // Cancelled by the expert while waiting.
  const third = await withdraw(world, doctor, '2500')
  const cancelled = await world.call(
    doctor,
    'POST',
    `/main/wallet/withdrawals/${third.data.id}/cancel`,
  )
  assert.equal(cancelled.data.state, 'cancelled')
  assert.equal((await balances(world, doctor)).withdrawingFen, 0)
  await world.assertLedger()
  // Each ending is told in 我的消息, the expert's own 取消 too (the record of where the money went).
  assert.deepEqual(
    (await walletMessages(world, doctor.user.id)).map((m) => m.title).sort(),
    ['提现已到账', '提现审核未通过，已退回余额', '提现已取消，已退回余额'].sort(),
  )

  const log = await world.call(world.operator, 'GET', '/main/operator/actions')
  assert.equal(log.status, 200, log.error ?? '')
  const actions = log.data.items.map(
    (item: { action: string; targetId: string; detail: string }) => [
      item.action,
      item.targetId,
      item.detail,
    ],
  )
  assert.deepEqual(
    actions.filter(([action]: string[]) => action.startsWith('withdrawal-')),
    [
      ['withdrawal-reject', second.data.id, '3000.00 元：收款信息待核实'],
      ['withdrawal-approve', big.data.id, '2000.01 元'],
    ],
  )
})

test('limits: per transfer, per expert per day (the day given back when voided), per platform per day', async () => {
  const world = await walletWorld()
  await world.setLimits({
    perTransferFen: 50_000,
    perDayFen: 80_000,
    platformPerDayFen: 120_000,
    reviewAboveFen: 1_000_000,
  })
  const doctor = await walletExpert(world)
  const other = await walletExpert(world, '周专家')
  await creditIncome(world, doctor.user.id, 1_000_000)
  await creditIncome(world, other.user.id, 1_000_000)

  const perTransfer = await withdraw(world, doctor, '500.01')
  assert.equal(perTransfer.status, 400)
  assert.equal(perTransfer.error, WALLET_MESSAGES.overPerTransfer)

  const first = await withdraw(world, doctor, '500')
  assert.equal(first.status, 200, first.error ?? '')
  // Finish it (paid) so the next one may start; 500 of the 800 a day are used.
  await world.advance(2_500)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${first.data.id}/sync`)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${first.data.id}/confirm`)
  await world.advance(3_500)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${first.data.id}/sync`)
  assert.equal((await balances(world, doctor)).limits.leftTodayFen, 30_000)
  const quote = await world.call(doctor, 'GET', '/main/wallet/withdrawals/quote?amount=300.01')
  assert.equal(quote.data.refused, WALLET_MESSAGES.overPerDay)
  const overDay = await withdraw(world, doctor, '300.01')
  assert.equal(overDay.status, 400)
  assert.equal(overDay.error, WALLET_MESSAGES.overPerDay)
  assert.equal((await balances(world, doctor)).withdrawingFen, 0, 'nothing held')

  // The platform: 1,200 a day; the doctor used 500, so the other expert may take 700.
  const platform = await withdraw(world, other, '500')
  assert.equal(platform.status, 200, platform.error ?? '')
  assert.equal(
    (await world.call(other, 'POST', `/main/wallet/withdrawals/${platform.data.id}/cancel`)).status,
    409,
    '打款中 cannot be cancelled',
  )
  await world.advance(2_500)
  await world.call(other, 'POST', `/main/wallet/withdrawals/${platform.data.id}/sync`)
  const cancelled = await world.call(
    other,
    'POST',
    `/main/wallet/withdrawals/${platform.data.id}/cancel`,
  )
  assert.equal(cancelled.data.state, 'cancelled')
  // Voided: the day is given back, for the expert and the platform.
  assert.equal((await balances(world, other)).limits.leftTodayFen, 80_000)
  const again = await withdraw(world, other, '500')
  assert.equal(again.status, 200, again.error ?? '')
  await world.advance(2_500)
  await world.call(other, 'POST', `/main/wallet/withdrawals/${again.data.id}/sync`)
  await world.call(other, 'POST', `/main/wallet/withdrawals/${again.data.id}/confirm`)
  await world.advance(3_500)
  await world.call(other, 'POST', `/main/wallet/withdrawals/${again.data.id}/sync`)
  const overPlatform = await withdraw(world, other, '200.01')
  assert.equal(overPlatform.status, 400)
  assert.equal(overPlatform.error, WALLET_MESSAGES.overPlatformDay)
  assert.equal((await withdraw(world, other, '200')).status, 200)
  await world.assertLedger()

  // The next China day starts afresh.
  await world.advance(DAY, doctor, other)
  const tomorrow = await world.call(doctor, 'GET', '/main/wallet')
  assert.equal(tomorrow.data.limits.leftTodayFen, 80_000)
})
