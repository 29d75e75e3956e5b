import { randomUUID } from 'node:crypto'
import type { z } from 'zod/mini'
import { POINT_REASON_LABELS, type PointReasonSchema } from '@contract/main/apps'
import type { DB } from '../db'
import { page, type PageQuery } from '../db/paging'
import { conflict } from '../http/errors'

/*
 * Points (积分, contract/main/apps.ts): integers; every change is a ledger row and the balance row
 * moves in the same transaction. (user, reason, ref) is unique, so one event (an article read, a
 * feedback adopted) pays once however many requests race; the balance has CHECK (balance >= 0), so
 * a spend that would go below zero fails as a whole.
 */

export type PointReason = z.infer<typeof PointReasonSchema>
export const POINTS_NOT_ENOUGH = '积分不足'

/** What each event earns. */
export const POINT_AWARDS = {
  read: 1,
  feedbackAdopted: 50,
  signUp: 10,
} as const

export interface Award {
  userId: string
  reason: PointReason
  /** What earned it (an article id, a feedback id): the same ref never pays twice. */
  ref: string
  delta: number
}

/** Answers the balance after, or null when this event was already paid. */
export async function award(db: DB, input: Award, now: Date): Promise<number | null> {
  if (!Number.isInteger(input.delta) || input.delta === 0) throw new Error('points: integer delta')
  const run = async (trx: DB): Promise<number | null> => {
    const at = now.toISOString()
    const id = randomUUID()
    // The ledger row first: its unique key is what makes a second request for the same event a no-op.
    const inserted = await trx
      .insertInto('point_entries')
      .values({
        id,
        user_id: input.userId,
        reason: input.reason,
        ref: input.ref,
        delta: input.delta,
        balance_after: 0,
        created_at: at,
      })
      .onConflict((oc) => oc.columns(['user_id', 'reason', 'ref']).doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return null
    let balance: number
    try {
      const row = await trx
        .insertInto('point_balances')
        .values({ user_id: input.userId, balance: input.delta, updated_at: at })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet((eb) => ({
            balance: eb('point_balances.balance', '+', input.delta),
            updated_at: at,
          })),
        )
        .returning('balance')
        .executeTakeFirstOrThrow()
      balance = Number(row.balance)
    } catch (error) {
      // The CHECK (balance >= 0) refused it: a spend larger than the balance.
      if (input.delta < 0 && /check|constraint/i.test(String(error)))
        throw conflict(POINTS_NOT_ENOUGH)
      throw error
    }
    await trx
      .updateTable('point_entries')
      .set({ balance_after: balance })
      .where('id', '=', id)
      .execute()
    return balance
  }
  return db.isTransaction ? run(db) : db.transaction().execute(run)
}

export async function pointBalance(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('point_balances')
    .select('balance')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row ? Number(row.balance) : 0
}

export async function listPoints(db: DB, userId: string, query: PageQuery) {
  const base = db.selectFrom('point_entries').where('user_id', '=', userId)
  const [found, balance] = await Promise.all([
    page(query, base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), base),
    pointBalance(db, userId),
  ])
  return {
    ...found,
    items: found.items.map((row) => ({
      id: row.id,
      reason: row.reason as PointReason,
      reasonLabel: POINT_REASON_LABELS[row.reason as PointReason] ?? row.reason,
      delta: Number(row.delta),
      balanceAfter: Number(row.balance_after),
      at: row.created_at,
    })),
    balance,
  }
}
