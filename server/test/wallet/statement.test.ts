import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { type Selectable, sql } from 'kysely'
import type { LedgerStatementLinesTable } from '../../src/db/schema'
import { checkLedger } from '../../src/domain/ledger'
import { TRADE_LEDGER_KINDS } from '../../src/domain/wallet/trades'
import { patient } from '../consultations/support'
import {
  balances,
  creditIncome,
  walletExpert,
  walletWorld,
  type WalletWorld,
  adoptedConsultation,
  withdrawToTheEnd,
} from './support'

/*
 * The ledger's statement lines (ledger_statement_lines, one per expert and transfer touching the
 * expert's accounts), which 交易记录 reads: after real flows (a consultation completed, refunded in
 * part after a 投诉 and settled; a withdrawal paid with tax; one failed and returned) every line is
 * the sum of its transfer's entries on each expert account, no one else has lines, and 交易记录's
 * pages are those the former GROUP BY over every entry gave. `ledger:check` finds a changed line, a
 * missing one, a line without entries and a line unlike its transfer.
 */

const HOUR = 3600_000

type Line = Selectable<LedgerStatementLinesTable>

/** What the lines must be, from the entries on expert accounts (the former 交易记录 query). */
async function linesFromEntries(world: WalletWorld): Promise<Line[]> {
  const change = (kind: string) =>
    sql<number>`sum(case when a.kind = ${kind} then e.amount else 0 end)`
  const rows = await world.app.db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
    .innerJoin('ledger_transfers as t', 't.id', 'e.transfer_id')
    .select([
      'a.owner_id',
      't.id as transfer_id',
      't.kind',
      't.created_at',
      change('expert-pending').as('pending_change'),
      change('expert-available').as('available_change'),
      change('expert-withdrawing').as('withdrawing_change'),
      't.consultation_id',
      't.withdrawal_id',
    ])
    .where('a.kind', 'like', 'expert-%')
    .groupBy([
      'a.owner_id',
      't.id',
      't.kind',
      't.created_at',
      't.consultation_id',
      't.withdrawal_id',
    ])
    .execute()
  return rows.map(normal).sort(byKey)
}

async function storedLines(world: WalletWorld): Promise<Line[]> {
  const rows = await world.app.db.selectFrom('ledger_statement_lines').selectAll().execute()
  return rows.map(normal).sort(byKey)
}

const normal = (row: Omit<Line, 'owner_id'> & { owner_id: string | null }): Line => ({
  ...row,
  owner_id: row.owner_id ?? '',
  pending_change: Number(row.pending_change),
  available_change: Number(row.available_change),
  withdrawing_change: Number(row.withdrawing_change),
})
const byKey = (a: Line, b: Line) =>
  `${a.owner_id} ${a.transfer_id}` < `${b.owner_id} ${b.transfer_id}` ? -1 : 1

/** 交易记录's row for a line, by the rule of trades.ts (可提现 first, then the account touched). */
function shown(line: Line) {
  const changes = [
    ['可提现', line.available_change],
    ['待结算', line.pending_change],
    ['提现中', line.withdrawing_change],
  ] as const
  const [accountLabel, amountFen] = changes.find(([, fen]) => fen !== 0) ?? changes[0]
  return { id: line.transfer_id, amountFen, accountLabel, at: line.created_at }
}

async function realFlows() {
  const world = await walletWorld()
  const asker = await patient(world)
  const doctor = await walletExpert(world)
  const other = await walletExpert(world, '赵专家')
  await world.setLimits({ reviewAboveFen: 2_000_000 })
  await adoptedConsultation(world, asker, doctor)
  const refunded = await adoptedConsultation(world, asker, doctor)
  await adoptedConsultation(world, asker, other)
  assert.equal(
    (
      await world.call(asker, 'POST', `/main/consultations/${refunded}/complaint`, {
        text: '回答太简单',
      })
    ).status,
    200,
  )
  const decided = await world.call(
    world.operator,
    'POST',
    `/main/operator/consultations/${refunded}/complaint`,
    { refundFen: 1000, note: '退还部分费用' },
  )
  assert.equal(decided.status, 200, decided.error ?? '')
  await world.advance(8 * 24 * HOUR, asker, doctor, other, world.operator)
  for (let round = 0; round < 100; round += 1) {
    await world.drainJobs()
    const [a, b] = [await balances(world, doctor), await balances(world, other)]
    if (a.pendingFen === 0 && b.pendingFen === 0) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  assert.equal((await balances(world, doctor)).availableFen, 4000)

  // A failed withdrawal (returned), then, with more income, one paid with tax (7,200 元: 22.80 元
  // withheld).
  const failed = await withdrawToTheEnd(world, doctor, '12.44')
  assert.equal(failed.state, 'failed')
  await creditIncome(world, doctor.user.id, 800_000)
  const paid = await withdrawToTheEnd(world, doctor, '7200')
  assert.equal(paid.state, 'paid')
  assert.equal(paid.taxFen, 2280)
  await world.assertLedger()
  return { world, asker, doctor, other }
}

test('statement lines are the entries on expert accounts after real flows, and 交易记录 pages them as before', async () => {
  const { world, asker, doctor, other } = await realFlows()
  const lines = await storedLines(world)
  assert.deepEqual(lines, await linesFromEntries(world), 'each line is its transfer’s entries')
  assert.deepEqual(
    [...new Set(lines.filter((l) => l.owner_id === doctor.user.id).map((l) => l.kind))].sort(),
    [
      'completion',
      'refund-hold',
      'settlement',
      'withdraw-hold',
      'withdraw-paid',
      'withdraw-tax',
      'withdraw-void',
    ],
  )
  assert.deepEqual(
    [...new Set(lines.map((l) => l.owner_id))].sort(),
    [doctor.user.id, other.user.id].sort(),
    'only experts have lines (not the patient, the platform, escrow or the provider)',
  )
  assert.ok(!lines.some((l) => l.owner_id === asker.user.id))

  // 交易记录, every filter and page, is the lines newest first (ties by transfer id), as before.
  const mine = lines
    .filter((l) => l.owner_id === doctor.user.id)
    .sort((a, b) =>
      a.created_at !== b.created_at
        ? a.created_at < b.created_at
          ? 1
          : -1
        : a.transfer_id < b.transfer_id
          ? 1
          : -1,
    )
  const month = mine[0]!.created_at.slice(0, 7)
  const cases: { path: string; expected: Line[] }[] = [
    { path: '', expected: mine },
    { path: `month=${month}`, expected: mine.filter((l) => l.created_at.startsWith(month)) },
    ...Object.entries(TRADE_LEDGER_KINDS).map(([kind, ledgerKinds]) => ({
      path: `kind=${kind}`,
      expected: mine.filter((l) => ledgerKinds.includes(l.kind)),
    })),
  ]
  for (const { path, expected } of cases) {
    for (const [page, pageSize] of [
      [1, 50],
      [1, 3],
      [2, 3],
      [9, 3],
    ] as const) {
      const res = await world.call(
        doctor,
        'GET',
        `/main/wallet/trades?page=${page}&pageSize=${pageSize}&${path}`,
      )
      assert.equal(res.status, 200, res.error ?? '')
      assert.equal(res.data.total, expected.length, `${path} total`)
      assert.deepEqual(
        (
          res.data.items as { id: string; amountFen: number; accountLabel: string; at: string }[]
        ).map(({ id, amountFen, accountLabel, at }) => ({ id, amountFen, accountLabel, at })),
        expected.slice((page - 1) * pageSize, page * pageSize).map(shown),
        `${path} page ${page} of ${pageSize}`,
      )
    }
  }
  // The detail reads its line; another expert's transfer is not found.
  const hold = mine.find((l) => l.kind === 'withdraw-hold')!
  const detail = await world.call(doctor, 'GET', `/main/wallet/trades/${hold.transfer_id}`)
  assert.deepEqual(detail.data.entries, [
    { accountLabel: '可提现', amountFen: hold.available_change },
    { accountLabel: '提现中', amountFen: hold.withdrawing_change },
  ])
  const theirs = lines.find((l) => l.owner_id === other.user.id)!
  assert.equal(
    (await world.call(doctor, 'GET', `/main/wallet/trades/${theirs.transfer_id}`)).status,
    404,
  )
})

test('ledger:check finds a changed statement line, a missing one, one without entries and one unlike its transfer', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  const stranger = await walletExpert(world, '钱专家')
  await creditIncome(world, doctor.user.id, 10_000)
  const failed = await withdrawToTheEnd(world, doctor, '12.44')
  assert.equal(failed.state, 'failed')
  await world.assertLedger()
  const db = world.app.db
  const line = await db
    .selectFrom('ledger_statement_lines')
    .selectAll()
    .where('owner_id', '=', doctor.user.id)
    .where('kind', '=', 'settlement')
    .executeTakeFirstOrThrow()
  const at = { owner: line.owner_id, transfer: line.transfer_id }
  const problems = async () => (await checkLedger(db, world.clock.now())).problems
  const thisLine = () =>
    db
      .updateTable('ledger_statement_lines')
      .where('owner_id', '=', at.owner)
      .where('transfer_id', '=', at.transfer)

  // Changed: 1 分 more on 可提现.
  await thisLine()
    .set({ available_change: Number(line.available_change) + 1 })
    .execute()
  assert.deepEqual(await problems(), [
    `专家 ${at.owner} 转账 ${at.transfer} 的交易记录行（待结算 -10000 分、可提现 10001 分、提现中 0 分）与分录合计（待结算 -10000 分、可提现 10000 分、提现中 0 分）不符`,
  ])
  await thisLine().set({ available_change: line.available_change }).execute()
  await world.assertLedger()

  // Missing.
  await db
    .deleteFrom('ledger_statement_lines')
    .where('owner_id', '=', at.owner)
    .where('transfer_id', '=', at.transfer)
    .execute()
  assert.deepEqual(await problems(), [
    `转账 ${at.transfer} 动了专家 ${at.owner} 的账户，但缺少其交易记录行`,
  ])
  await db.insertInto('ledger_statement_lines').values(line).execute()
  await world.assertLedger()

  // Another kind, time or withdrawal than its transfer's.
  for (const change of [
    { kind: 'completion' },
    { created_at: '2030-01-01T00:00:00.000Z' },
    { withdrawal_id: failed.id },
  ]) {
    await thisLine().set(change).execute()
    assert.deepEqual(await problems(), [
      `专家 ${at.owner} 的交易记录行 ${at.transfer} 的类型、时间、咨询或提现与转账不符`,
    ])
    await thisLine().set(line).execute()
  }
  await world.assertLedger()

  // Lines without entries: another expert's on this transfer, and one of no transfer at all.
  const nowhere = randomUUID()
  await db
    .insertInto('ledger_statement_lines')
    .values([
      { ...line, owner_id: stranger.user.id },
      { ...line, transfer_id: nowhere },
    ])
    .execute()
  assert.deepEqual(
    (await problems()).sort(),
    [
      `专家 ${at.owner} 的交易记录行指向不存在的转账 ${nowhere}`,
      `专家 ${stranger.user.id} 的交易记录行 ${at.transfer} 没有对应的分录`,
    ].sort(),
  )
})
