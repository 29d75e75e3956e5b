import type { ConsultDetail } from '@contract/main/consultations'
import type { DB } from '../../db'
import { conflict } from '../../http/errors'
import { afterCommit, type ConsultContext } from './context'
import { consultationFor, describeConsultation, type Effects, noEffects, type Side } from './model'

/*
 * The shape every state change takes: its work in one transaction (the conditional update, the
 * money, the timer, the lines and notices it collects as effects), 409 when the work found the
 * state moved on, the effects after the commit, and the detail as the caller now reads it.
 */

/** The consultation as `userId` reads it on `side` (either side, when not given). */
export async function readDetail(
  ctx: ConsultContext,
  userId: string,
  consultationId: string,
  side?: Side,
): Promise<ConsultDetail> {
  const found = await consultationFor(ctx.db, userId, consultationId, side)
  return describeConsultation(ctx.db, ctx.cipher, found.row, found.side, ctx.now())
}

/**
 * The work of a state change. It answers something (the moved row, true) when it changed the
 * state, and undefined or false when it lost (the state was no longer one it moves from); it may
 * throw an ApiError of its own for a refusal it can name better.
 */
export type TransitionWork = (trx: DB, effects: Effects, now: Date) => Promise<unknown>

/** `work` in a transaction; 409 `refusal` when it lost; then its effects after the commit. */
export async function commitTransition(
  ctx: ConsultContext,
  work: TransitionWork,
  refusal: string,
): Promise<void> {
  const now = ctx.now()
  const effects = noEffects()
  const moved = await ctx.db.transaction().execute((trx) => work(trx, effects, now))
  if (moved === undefined || moved === false) throw conflict(refusal)
  await afterCommit(ctx, effects)
}

/** commitTransition, answering the consultation's detail as `reader` reads it afterwards. */
export async function runTransition(
  ctx: ConsultContext,
  reader: { userId: string; consultationId: string; side: Side },
  work: TransitionWork,
  refusal: string,
): Promise<ConsultDetail> {
  await commitTransition(ctx, work, refusal)
  return readDetail(ctx, reader.userId, reader.consultationId, reader.side)
}
