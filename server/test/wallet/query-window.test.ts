import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ACCOUNTS, balanceOf, checkLedger } from '../../src/domain/ledger'
import {
  PROVIDER_QUERY_WINDOW_MS,
  sendToProvider,
  syncWithProvider,
} from '../../src/domain/wallet/settle'
import { TransferRefused, TransferUnclear } from '../../src/providers/transfers'
import { creditIncome, walletExpert, walletWorld, withdraw } from './support'

/*
 * WeChat's bill query reaches back 30 days; past that a bill that exists answers as none. A
 * withdrawal whose first send was unclear and that is still 打款中 after that window must not be
 * sent again (it could pay twice) nor voided (it could give back money already paid): it stays
 * held for an operator. Inside the window the same "no bill" sends the same bill number again.
 */

const DAY = 24 * 3600_000

async function unclearWithdrawal() {
  const world = await walletWorld({ runJobs: false })
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 10_000)
  const creates: string[] = []
  let answer: 'unclear' | 'refused' | 'pay' = 'unclear'
  world.useTransfers((demo) => ({
    ...demo,
    async createTransfer(input) {
      creates.push(input.outBillNo)
      if (answer === 'unclear') throw new TransferUnclear('timeout')
      if (answer === 'refused') throw new TransferRefused('参数错误', 'PARAM_ERROR')
      return demo.createTransfer(input)
    },
    // The provider's query sees no bill (as WeChat's for one older than its window).
    queryTransfer: async () => null,
  }))
  const made = await withdraw(world, doctor, '50')
  assert.equal(made.status, 200, made.error ?? '')
  const row = await world.app.db
    .selectFrom('withdrawals')
    .selectAll()
    .where('expert_user_id', '=', doctor.user.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.state, 'paying')
  assert.ok(row.sent_at, 'the first send was made')
  assert.equal(creates.length, 1)
  return {
    world,
    row,
    creates,
    answer: (next: typeof answer) => {
      answer = next
    },
  }
}

async function stateOf(world: Awaited<ReturnType<typeof walletWorld>>, id: string) {
  const row = await world.app.db
    .selectFrom('withdrawals')
    .select('state')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return row.state
}

/** What the expert has in 提现中 (the withdrawal's hold). */
const held = (world: Awaited<ReturnType<typeof walletWorld>>, userId: string) =>
  balanceOf(world.app.db, ACCOUNTS.expertWithdrawing(userId))

test('inside the query window, no bill at the provider: the same bill number is sent again', async () => {
  const { world, row, creates, answer } = await unclearWithdrawal()
  world.clock.advance(DAY)
  answer('pay')
  await syncWithProvider(world.wallet(), row.id)
  assert.deepEqual(creates, [row.out_bill_no, row.out_bill_no])
  assert.deepEqual((await checkLedger(world.app.db, world.clock.now())).problems, [])
})

test('past the query window, no bill at the provider: not sent again, not voided, the hold stays', async () => {
  const { world, row, creates, answer } = await unclearWithdrawal()
  world.clock.advance(PROVIDER_QUERY_WINDOW_MS + DAY)
  answer('pay')
  assert.equal(await syncWithProvider(world.wallet(), row.id), 'unclear')
  assert.equal(creates.length, 1, 'no second send')
  assert.equal(await stateOf(world, row.id), 'paying')
  assert.equal(await held(world, row.expert_user_id), 5_000)
  assert.deepEqual((await checkLedger(world.app.db, world.clock.now())).problems, [])
})

test('past the query window, a refusal with no bill found does not void the hold either', async () => {
  const { world, row, creates, answer } = await unclearWithdrawal()
  world.clock.advance(PROVIDER_QUERY_WINDOW_MS + DAY)
  answer('refused')
  assert.equal(await sendToProvider(world.wallet(), row.id), 'unclear')
  assert.equal(creates.length, 2)
  assert.equal(await stateOf(world, row.id), 'paying')
  assert.equal(await held(world, row.expert_user_id), 5_000)
  assert.deepEqual((await checkLedger(world.app.db, world.clock.now())).problems, [])
})

test('inside the window, the same refusal with no bill found voids the hold: back to 可提现', async () => {
  const { world, row, answer } = await unclearWithdrawal()
  world.clock.advance(DAY)
  answer('refused')
  assert.equal(await sendToProvider(world.wallet(), row.id), 'refused')
  assert.equal(await stateOf(world, row.id), 'failed')
  assert.equal(await held(world, row.expert_user_id), 0)
  assert.deepEqual((await checkLedger(world.app.db, world.clock.now())).problems, [])
})
