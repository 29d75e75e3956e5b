import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import type { DB } from '../../src/db'
import { statementLines } from '../../src/db/migrations/0026-statement-lines'
import { ACCOUNTS, checkLedger, LedgerRefused, postTransfer } from '../../src/domain/ledger'
import { openTestDatabase, TEST_DB_KIND } from '../helpers'

/*
 * postTransfer writes a transfer's statement lines with its entries (one per expert whose accounts it
 * touches, none for a transfer that touches none, none for a duplicate or a refused one), and
 * migration 0026 gives transfers posted before it the same lines from their entries.
 */

const NOW = new Date('2030-06-01T08:00:00.000Z')

async function post(
  db: DB,
  eventKey: string,
  kind: string,
  entries: Parameters<typeof postTransfer>[1]['entries'],
  extra: { consultationId?: string; withdrawalId?: string; at?: Date } = {},
) {
  return db
    .transaction()
    .execute((trx) => postTransfer(trx, { eventKey, kind, entries, ...extra }, extra.at ?? NOW))
}

/** A little of everything the ledger posts, on two experts. */
async function someTransfers(db: DB) {
  const [a, b] = [randomUUID(), randomUUID()]
  const consultation = randomUUID()
  const withdrawal = randomUUID()
  const provider = ACCOUNTS.provider('demo')
  // Paid into escrow: no expert account, no line.
  await post(
    db,
    'pay',
    'payment',
    [
      { account: provider, amount: -3000 },
      { account: ACCOUNTS.escrow(consultation), amount: 3000 },
    ],
    { consultationId: consultation },
  )
  await post(
    db,
    'complete',
    'completion',
    [
      { account: ACCOUNTS.escrow(consultation), amount: -3000 },
      { account: ACCOUNTS.expertPending(a), amount: 2400 },
      { account: ACCOUNTS.platformRevenue(), amount: 600 },
    ],
    { consultationId: consultation, at: new Date(NOW.getTime() + 1000) },
  )
  await post(
    db,
    'settle',
    'settlement',
    [
      { account: ACCOUNTS.expertPending(a), amount: -2400 },
      { account: ACCOUNTS.expertAvailable(a), amount: 2400 },
    ],
    { consultationId: consultation, at: new Date(NOW.getTime() + 2000) },
  )
  await post(
    db,
    'hold',
    'withdraw-hold',
    [
      { account: ACCOUNTS.expertAvailable(a), amount: -1000 },
      { account: ACCOUNTS.expertWithdrawing(a), amount: 1000 },
    ],
    { withdrawalId: withdrawal, at: new Date(NOW.getTime() + 3000) },
  )
  // Not something the app posts: one transfer on two experts' accounts gets a line for each.
  await post(
    db,
    'between',
    'reversal',
    [
      { account: ACCOUNTS.expertAvailable(a), amount: -400 },
      { account: ACCOUNTS.expertPending(b), amount: 400 },
    ],
    { at: new Date(NOW.getTime() + 4000) },
  )
  return { a, b, consultation, withdrawal }
}

async function lines(db: DB) {
  const rows = await db
    .selectFrom('ledger_statement_lines')
    .selectAll()
    .orderBy('created_at')
    .orderBy('owner_id')
    .execute()
  return rows.map((row) => ({
    ...row,
    pending_change: Number(row.pending_change),
    available_change: Number(row.available_change),
    withdrawing_change: Number(row.withdrawing_change),
  }))
}

const transferId = async (db: DB, eventKey: string) =>
  (
    await db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('event_key', '=', eventKey)
      .executeTakeFirstOrThrow()
  ).id

test(`postTransfer writes one statement line per expert it touches, with the transfer (${TEST_DB_KIND})`, async () => {
  const handle = openTestDatabase()
  await handle.migrate()
  const { db } = handle
  const { a, b, consultation, withdrawal } = await someTransfers(db)
  const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString()
  const id = Object.fromEntries(
    await Promise.all(
      ['complete', 'settle', 'hold', 'between'].map(
        async (key) => [key, await transferId(db, key)] as const,
      ),
    ),
  )
  const none = { pending_change: 0, available_change: 0, withdrawing_change: 0 }
  const ofConsultation = { consultation_id: consultation, withdrawal_id: null }
  assert.deepEqual(await lines(db), [
    {
      owner_id: a,
      transfer_id: id.complete,
      kind: 'completion',
      created_at: at(1000),
      ...none,
      pending_change: 2400,
      ...ofConsultation,
    },
    {
      owner_id: a,
      transfer_id: id.settle,
      kind: 'settlement',
      created_at: at(2000),
      ...none,
      pending_change: -2400,
      available_change: 2400,
      ...ofConsultation,
    },
    {
      owner_id: a,
      transfer_id: id.hold,
      kind: 'withdraw-hold',
      created_at: at(3000),
      ...none,
      available_change: -1000,
      withdrawing_change: 1000,
      consultation_id: null,
      withdrawal_id: withdrawal,
    },
    ...[a, b].sort().map((owner) => ({
      owner_id: owner,
      transfer_id: id.between,
      kind: 'reversal',
      created_at: at(4000),
      ...none,
      ...(owner === a ? { available_change: -400 } : { pending_change: 400 }),
      consultation_id: null,
      withdrawal_id: null,
    })),
  ])

  // The same event again: nothing new. Refused (below zero): rolled back with its entries.
  const before = await lines(db)
  assert.equal(
    await post(db, 'settle', 'settlement', [
      { account: ACCOUNTS.expertPending(a), amount: -2400 },
      { account: ACCOUNTS.expertAvailable(a), amount: 2400 },
    ]),
    'duplicate',
  )
  await assert.rejects(
    post(db, 'too-much', 'withdraw-hold', [
      { account: ACCOUNTS.expertWithdrawing(a), amount: 5000 },
      { account: ACCOUNTS.expertAvailable(a), amount: -5000 },
    ]),
    LedgerRefused,
  )
  assert.deepEqual(await lines(db), before)
  assert.deepEqual((await checkLedger(db, NOW)).problems, [])
  await handle.destroy()
})

test(`migration 0026 gives transfers posted before it their statement lines (${TEST_DB_KIND})`, async () => {
  const handle = openTestDatabase()
  await handle.migrate()
  const { db } = handle
  await someTransfers(db)
  const written = await lines(db)
  assert.equal(written.length, 5)

  // As the database was before 0026 (the ledger without lines), then 0026 again.
  await statementLines.down!(db)
  await statementLines.up(db)

  assert.deepEqual(await lines(db), written)
  assert.deepEqual((await checkLedger(db, NOW)).problems, [])
  await handle.destroy()
})
