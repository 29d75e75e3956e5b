import assert from 'node:assert/strict'
import { test } from 'node:test'
import { WALLET_MESSAGES } from '@contract/main/wallet'
import { ApiError } from '../../src/http/errors'
import { placeWithdrawal } from '../../src/domain/wallet/withdrawals'
import { walletLimits } from '../../src/domain/wallet/settings'
import {
  type DemoTransferProvider,
  type TransferProvider,
  TransferUnclear,
} from '../../src/providers/transfers'
import { TRANSFER_NOTIFY_PATH } from '../../src/routes/main/wallet'
import {
  balances,
  clientId,
  creditIncome,
  walletExpert,
  walletWorld,
  type WalletWorld,
  withdraw,
} from './support'

/*
 * Money that never moves twice. 50 withdrawals of the whole balance at once (through the domain,
 * past the password check's own limit, and through HTTP): one goes through. A FAIL applied by
 * duplicate notifications, 刷新 and the job all at once gives the money back once. An unclear answer
 * from the provider keeps the bill number, and the job pays it once. A forged notification or one
 * with another amount changes nothing; one of an earlier state arriving late changes nothing.
 * A crash between the hold and the provider call is finished by the job with the same bill number.
 */

const count = async (world: WalletWorld, kind: string) =>
  Number(
    (
      await world.app.db
        .selectFrom('ledger_transfers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', '=', kind)
        .executeTakeFirstOrThrow()
    ).n,
  )

const notify = (
  world: WalletWorld,
  notification: { headers: Record<string, string | undefined>; rawBody: string },
) =>
  world.app.inject({
    method: 'POST',
    url: TRANSFER_NOTIFY_PATH,
    headers: {
      'content-type': 'application/json',
      ...(notification.headers as Record<string, string>),
    },
    payload: notification.rawBody,
  })

test('50 withdrawals of the whole balance at once: exactly one goes through (domain and HTTP)', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 88_888)
  const limits = await walletLimits(world.app.db)
  const outcomes = await Promise.allSettled(
    Array.from({ length: 50 }, () =>
      placeWithdrawal(world.wallet(), doctor.user.id, {
        grossFen: 88_888,
        clientId: clientId(),
        realName: '李专家',
        limits,
      }),
    ),
  )
  const placed = outcomes.filter((o) => o.status === 'fulfilled')
  assert.equal(placed.length, 1)
  for (const o of outcomes) {
    if (o.status === 'rejected') {
      assert.ok(o.reason instanceof ApiError, String(o.reason))
      assert.ok(
        [WALLET_MESSAGES.oneAtATime, WALLET_MESSAGES.amountOverBalance].includes(
          (o.reason as ApiError).userMessage as never,
        ),
        (o.reason as ApiError).userMessage,
      )
    }
  }
  let wallet = await balances(world, doctor)
  assert.equal(wallet.availableFen, 0)
  assert.equal(wallet.withdrawingFen, 88_888)
  assert.equal(await count(world, 'withdraw-hold'), 1)
  await world.assertLedger()

  // Over HTTP, a second expert: the password check, then one in flight; one 200.
  const other = await walletExpert(world, '周专家')
  await creditIncome(world, other.user.id, 77_777)
  const answers = await Promise.all(
    Array.from({ length: 50 }, () => withdraw(world, other, '777.77')),
  )
  const statuses = answers.map((a) => a.status)
  assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','))
  assert.ok(
    statuses.every((s) => [200, 400, 409, 429].includes(s)),
    statuses.join(','),
  )
  wallet = await balances(world, other)
  assert.equal(wallet.availableFen, 0)
  assert.equal(wallet.withdrawingFen, 77_777)
  assert.equal(await count(world, 'withdraw-hold'), 2)
  await world.assertLedger()
})

test('FAIL applied by 10 notifications, 5 刷新 and the job at once returns the money once', async () => {
  const world = await walletWorld({ config: { publicUrl: 'https://yx.example.test' } })
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 20_000)
  const made = await withdraw(world, doctor, '100.44')
  assert.equal(made.status, 200, made.error ?? '')
  await world.advance(2_500)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  const confirmed = await world.call(
    doctor,
    'POST',
    `/main/wallet/withdrawals/${made.data.id}/confirm`,
  )
  assert.equal(confirmed.status, 200, confirmed.error ?? '')
  await world.advance(40_000)
  const demo = world.app.providers.transfers as DemoTransferProvider
  const failed = await demo.queryTransfer(made.data.billNo)
  assert.equal(failed?.state, 'FAIL')
  const notification = demo.demoNotification(failed!)
  const results = await Promise.all([
    ...Array.from({ length: 10 }, () => notify(world, notification)),
    ...Array.from({ length: 5 }, () =>
      world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`),
    ),
    world.drainWallet(),
  ])
  for (const res of results.slice(0, 10))
    assert.equal((res as { statusCode: number }).statusCode, 204)
  const after = await world.call(doctor, 'GET', `/main/wallet/withdrawals/${made.data.id}`)
  assert.equal(after.data.state, 'failed')
  assert.equal(after.data.reason, '演示失败')
  assert.equal(await count(world, 'withdraw-void'), 1)
  assert.equal(await count(world, 'withdraw-paid'), 0)
  const wallet = await balances(world, doctor)
  assert.equal(wallet.availableFen, 20_000)
  assert.equal(wallet.withdrawingFen, 0)
  await world.assertLedger()
  // A SUCCESS for the same bill arriving afterwards (forged state or a provider's error) changes nothing.
  const late = await notify(world, demo.demoNotification({ ...failed!, state: 'SUCCESS' }))
  assert.equal(late.statusCode, 204)
  assert.equal(await count(world, 'withdraw-paid'), 0)
  await world.assertLedger()
})

test('duplicate and out-of-order notifications: SUCCESS posts once; a late TRANSFERING or WAIT_USER_CONFIRM changes nothing', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 30_000)
  const made = await withdraw(world, doctor, '100')
  const demo = world.app.providers.transfers as DemoTransferProvider
  const bill = made.data.billNo as string
  await world.advance(2_500)
  const waiting = (await demo.queryTransfer(bill))!
  assert.equal(waiting.state, 'WAIT_USER_CONFIRM')
  const transfering = await demo.demoConfirm(bill)
  assert.equal(transfering.state, 'TRANSFERING')
  await world.advance(3_500)
  const success = (await demo.queryTransfer(bill))!
  assert.equal(success.state, 'SUCCESS')
  // Out of order: TRANSFERING first, then WAIT_USER_CONFIRM (older), then SUCCESS ×5, then the older ones again.
  assert.equal((await notify(world, demo.demoNotification(transfering))).statusCode, 204)
  assert.equal((await notify(world, demo.demoNotification(waiting))).statusCode, 204)
  let row = await world.call(doctor, 'GET', `/main/wallet/withdrawals/${made.data.id}`)
  assert.equal(row.data.state, 'paying', 'WAIT_USER_CONFIRM after TRANSFERING does not go back')
  await Promise.all(Array.from({ length: 5 }, () => notify(world, demo.demoNotification(success))))
  await notify(world, demo.demoNotification(transfering))
  await notify(world, demo.demoNotification(waiting))
  row = await world.call(doctor, 'GET', `/main/wallet/withdrawals/${made.data.id}`)
  assert.equal(row.data.state, 'paid')
  assert.equal(await count(world, 'withdraw-paid'), 1)
  assert.equal(await count(world, 'withdraw-void'), 0)
  assert.equal((await balances(world, doctor)).availableFen, 20_000)
  await world.assertLedger()
})

test('a forged notification, or one with another amount, is refused and changes nothing', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 30_000)
  const made = await withdraw(world, doctor, '100')
  const demo = world.app.providers.transfers as DemoTransferProvider
  const real = demo.demoNotification({
    outBillNo: made.data.billNo,
    billNo: null,
    state: 'SUCCESS',
    amountFen: 10_000,
    packageInfo: null,
    failReason: null,
    updatedAt: null,
  })
  const tampered = { ...real, rawBody: real.rawBody.replace('10000', '1') }
  assert.equal((await notify(world, tampered)).statusCode, 401)
  assert.equal((await notify(world, { headers: {}, rawBody: real.rawBody })).statusCode, 401)
  assert.equal(
    (
      await notify(world, {
        headers: { 'x-demo-signature': 'x'.repeat(43) },
        rawBody: real.rawBody,
      })
    ).statusCode,
    401,
  )
  // Signed, but another amount than the withdrawal's net: not applied (an operator must look).
  const otherAmount = demo.demoNotification({
    outBillNo: made.data.billNo,
    billNo: null,
    state: 'SUCCESS',
    amountFen: 1,
    packageInfo: null,
    failReason: null,
    updatedAt: null,
  })
  assert.equal((await notify(world, otherAmount)).statusCode, 400)
  const row = await world.call(doctor, 'GET', `/main/wallet/withdrawals/${made.data.id}`)
  assert.equal(row.data.state, 'paying')
  assert.equal(await count(world, 'withdraw-paid'), 0)
  assert.ok(world.logs.some((line) => line.includes('transfer notification refused')))
  await world.assertLedger()
})

function flaky(demo: TransferProvider, plan: { lostAnswers: number; failBefore: number }) {
  const calls: string[] = []
  const provider: TransferProvider = {
    ...demo,
    async createTransfer(input) {
      calls.push(input.outBillNo)
      if (plan.failBefore > 0) {
        plan.failBefore -= 1
        throw new TransferUnclear('timeout before the provider got it')
      }
      const result = await demo.createTransfer(input)
      if (plan.lostAnswers > 0) {
        plan.lostAnswers -= 1
        throw new TransferUnclear('the answer was lost')
      }
      return result
    },
  }
  return { provider, calls }
}

test('unclear answers: the same bill number is retried by the job, never a new one, and it pays once', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 50_000)
  let calls: string[] = []
  // The first create never reaches the provider; the second reaches it and its answer is lost.
  world.useTransfers((demo) => {
    const made = flaky(demo, { failBefore: 1, lostAnswers: 1 })
    calls = made.calls
    return made.provider
  })
  const made = await withdraw(world, doctor, '150')
  assert.equal(made.status, 200, made.error ?? '')
  assert.equal(made.data.state, 'paying')
  // The job: query → no bill → create again (same number) → the answer is lost.
  await world.advance(31_000)
  await world.drainWallet()
  // The next run: query → the bill exists → 待确认收款.
  await world.advance(60_000)
  await world.drainWallet()
  let row = await world.call(doctor, 'GET', `/main/wallet/withdrawals/${made.data.id}`)
  assert.equal(row.data.state, 'confirming')
  assert.ok(calls.length >= 2)
  assert.deepEqual(new Set(calls), new Set([made.data.billNo]), 'one bill number on every call')
  const bills = await world.app.db.selectFrom('demo_transfer_bills').selectAll().execute()
  assert.equal(bills.length, 1)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/confirm`)
  await world.advance(600_000)
  await world.drainWallet()
  row = await world.call(doctor, 'GET', `/main/wallet/withdrawals/${made.data.id}`)
  assert.equal(row.data.state, 'paid')
  assert.equal(await count(world, 'withdraw-paid'), 1)
  assert.equal((await balances(world, doctor)).availableFen, 35_000)
  await world.assertLedger()
})

test('a crash between the hold and the provider call: the job sends the same bill, and pays once', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 50_000)
  // placeWithdrawal commits the hold and the job; the process "dies" before asking the provider.
  const placed = await placeWithdrawal(world.wallet(), doctor.user.id, {
    grossFen: 40_000,
    clientId: clientId(),
    realName: '李专家',
    limits: await walletLimits(world.app.db),
  })
  assert.equal(placed.state, 'paying')
  assert.equal(
    (await world.app.db.selectFrom('demo_transfer_bills').selectAll().execute()).length,
    0,
  )
  await world.assertLedger()
  await world.advance(31_000)
  await world.drainWallet()
  const bills = await world.app.db.selectFrom('demo_transfer_bills').selectAll().execute()
  assert.deepEqual(
    bills.map((bill) => bill.out_bill_no),
    [placed.row.out_bill_no],
  )
  // Between the provider's SUCCESS and our posting: nothing applied yet, the job finds it and posts once.
  await world.advance(60_000)
  await world.drainWallet()
  const demo = world.app.providers.transfers as DemoTransferProvider
  await demo.demoConfirm(placed.row.out_bill_no)
  await world.advance(600_000)
  await Promise.all([world.drainWallet(), world.drainWallet()])
  const row = await world.app.db
    .selectFrom('withdrawals')
    .selectAll()
    .where('id', '=', placed.row.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.state, 'paid')
  assert.equal(await count(world, 'withdraw-paid'), 1)
  await world.assertLedger()
})
