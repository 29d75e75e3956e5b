import { sql } from 'kysely'
import {
  RETENTION_RULES,
  type RetentionRuleId,
  retentionRule,
  shiftByPeriod,
} from '@contract/main/retention'
import type { Database, DB } from '../../db'
import type { ObjectStore } from '../../storage/object-store'
import { expireOverdueExports } from '../data-export'
import { removeUnattachedFeedbackImages } from '../feedback'
import { purgeDeletedApplicants } from '../experts'
import { removeUnattachedOperatorFiles } from '../operator'
import { DELETED_NICKNAME } from '../profile'
import { type BatchLimits, inBatches } from './batches'

/*
 * The schedule's enforcement: for each rule of contract/main/retention.ts (what, how long, why), the
 * function that removes or anonymises what has passed its time. The periods are read from the rule,
 * never restated here. A rule whose records are never purged (the ledger) has `kept`; a rule whose
 * records belong to a feature that plugs its own purge in has `pluggedIn` until it does.
 */

export interface PurgeContext {
  db: DB
  now: Date
  /** Without a store, what has bytes in it (pictures, uploads) waits for a run that has one. */
  store: ObjectStore | undefined
  batches: BatchLimits
}

/** Answers rows done per table (or kind), for the log and the tests. */
export type Enforcer = (ctx: PurgeContext) => Promise<Record<string, number>>

export type Enforcement =
  | { enforce: Enforcer }
  /** Never purged: the law keeps it (say why in the rule). */
  | { kept: true }
  /** Enforced by the feature that owns the records, once it registers its function here. */
  | { pluggedIn: string }

/** The time before which a rule's records have passed their period (the rule must have one). */
export function retentionCutoff(id: RetentionRuleId, now: Date): string {
  const { period } = retentionRule(id)
  if (!period) throw new Error(`retention rule ${id} has no period`)
  return shiftByPeriod(now, period, -1).toISOString()
}

/** When a record of that rule made at `from` leaves (null: never). */
export function retentionEnd(id: RetentionRuleId, from: string): string | null {
  const { period } = retentionRule(id)
  return period ? shiftByPeriod(new Date(from), period, 1).toISOString() : null
}

const EMPTY_EXTERNAL_EXAMS = JSON.stringify({ offline: [], exams: [] })

/** Consultations that ended before `cutoff`. */
const endedBefore = (db: DB, cutoff: string) =>
  db
    .selectFrom('consultations')
    .select('id')
    .where('ended_at', 'is not', null)
    .where('ended_at', '<', cutoff)

type Column<T extends keyof Database> = string & keyof Database[T]

/**
 * Deletes, batch by batch, the rows of `table` whose `column` is before `cutoff` (a null is never
 * before anything). The batch is picked by `key` in a subquery, the portable bounded DELETE.
 */
function deleteBefore<T extends keyof Database>(
  ctx: PurgeContext,
  table: T,
  key: Column<T>,
  column: Column<T>,
  cutoff: string,
): Promise<number> {
  return inBatches(ctx.batches, async (size) => {
    const result = await sql`
      delete from ${sql.table(table)} where ${sql.ref(key)} in (
        select ${sql.ref(key)} from ${sql.table(table)} where ${sql.ref(column)} < ${cutoff}
        limit ${size})`.execute(ctx.db)
    return result.numAffectedRows ?? 0n
  })
}

/**
 * Deletes consultation pictures' rows, then their bytes, one by one: a row another process took
 * first is skipped. Answers the pictures this run removed.
 */
async function removePictures(
  ctx: PurgeContext,
  pick: (size: number) => Promise<{ id: string; object_key: string }[]>,
): Promise<number> {
  const store = ctx.store
  if (!store) return 0
  let removed = 0
  await inBatches(ctx.batches, async (size) => {
    const rows = await pick(size)
    for (const row of rows) {
      const gone = await ctx.db
        .deleteFrom('consultation_pictures')
        .where('id', '=', row.id)
        .executeTakeFirst()
      if (Number(gone.numDeletedRows) === 0) continue
      // After the row: a crash between the two leaves an orphan object, never a row without bytes.
      await store.delete(row.object_key)
      removed += 1
    }
    // The batch's size is what was picked: a short pick means nothing more is due.
    return rows.length
  })
  return removed
}

export const ENFORCEMENT: Record<RetentionRuleId, Enforcement> = {
  'security-events': {
    enforce: async (ctx) => {
      const cutoff = retentionCutoff('security-events', ctx.now)
      return {
        auditEvents: await deleteBefore(ctx, 'audit_events', 'id', 'created_at', cutoff),
      }
    },
  },

  'sms-codes': {
    enforce: async (ctx) => {
      const cutoff = retentionCutoff('sms-codes', ctx.now)
      return {
        smsCodes: await deleteBefore(ctx, 'sms_codes', 'id', 'expires_at', cutoff),
        codeTickets: await deleteBefore(ctx, 'code_tickets', 'id', 'expires_at', cutoff),
        smsOutbox: await deleteBefore(ctx, 'sms_outbox', 'id', 'created_at', cutoff),
      }
    },
  },

  'limit-counters': {
    enforce: async (ctx) => {
      const { db, now, batches } = ctx
      const at = now.toISOString()
      const cutoff = retentionCutoff('limit-counters', now)
      return {
        // A counter is nothing once its window ended: a new reservation starts a fresh row anyway.
        limitCounters: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('limit_counters')
            .where('key', 'in', (eb) =>
              eb
                .selectFrom('limit_counters')
                .select('key')
                .where('window_ends_at', '<=', at)
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
        // Nothing writes rate_events any more (server/README.md, "Limits"); emptied meanwhile.
        rateEvents: await deleteBefore(ctx, 'rate_events', 'id', 'created_at', cutoff),
        loginFailures: await deleteBefore(ctx, 'login_failures', 'mobile', 'updated_at', cutoff),
      }
    },
  },

  sessions: {
    enforce: async (ctx) => {
      const cutoff = retentionCutoff('sessions', ctx.now)
      return {
        // By refresh_expires_at only: such a session can neither be used nor refreshed, so nothing,
        // reuse detection included, needs it.
        sessions: await deleteBefore(ctx, 'sessions', 'id', 'refresh_expires_at', cutoff),
        shareSessions: await deleteBefore(ctx, 'share_sessions', 'id', 'expires_at', cutoff),
      }
    },
  },

  'consultation-conversations': {
    enforce: async (ctx) => {
      const { db, now, batches } = ctx
      const cutoff = retentionCutoff('consultation-conversations', now)
      return {
        // Signed answers and addenda are the opinion's: they stay for 'signed-opinions'.
        consultationMessages: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('consultation_messages')
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('consultation_messages')
                .select('id')
                .where('signed_at', 'is', null)
                .where('consultation_id', 'in', endedBefore(db, cutoff))
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
        consultationPictures: await removePictures(ctx, (size) =>
          db
            .selectFrom('consultation_pictures')
            .select(['id', 'object_key'])
            .where('consultation_id', 'in', endedBefore(db, cutoff))
            .limit(size)
            .execute(),
        ),
        // Decided only: an open 投诉 still holds the consultation's money and timers.
        consultationComplaints: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('consultation_complaints')
            .where('consultation_id', 'in', (eb) =>
              eb
                .selectFrom('consultation_complaints')
                .select('consultation_id')
                .where('state', '=', 'decided')
                .where('consultation_id', 'in', endedBefore(db, cutoff))
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
        opinionDrafts: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('opinion_drafts')
            .where('consultation_id', 'in', (eb) =>
              eb
                .selectFrom('opinion_drafts')
                .select('consultation_id')
                .where('consultation_id', 'in', endedBefore(db, cutoff))
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
      }
    },
  },

  'signed-opinions': {
    enforce: async (ctx) => {
      const cutoff = retentionCutoff('signed-opinions', ctx.now)
      return {
        // The database refuses this before 15 years (migration 0033's trigger), whatever asks.
        opinions: await deleteBefore(ctx, 'opinions', 'id', 'signed_at', cutoff),
        // Only signed rows: a null signed_at is never before the cutoff.
        signedMessages: await deleteBefore(ctx, 'consultation_messages', 'id', 'signed_at', cutoff),
        examRequests: await deleteBefore(ctx, 'exam_requests', 'id', 'created_at', cutoff),
      }
    },
  },

  'consultation-applications': {
    enforce: async ({ db, now, batches }) => {
      const cutoff = retentionCutoff('consultation-applications', now)
      return {
        consultationApplications: await inBatches(batches, async (size) => {
          const result = await db
            .updateTable('consultations')
            .set({
              chief_complaint: '',
              present_illness: '',
              past_history: '',
              allergies: '',
              questions: '',
              external_exams_json: EMPTY_EXTERNAL_EXAMS,
              rating_text: null,
              // Nothing of it is left to show on the expert's page.
              published_at: null,
            })
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('consultations')
                .select('id')
                .where('ended_at', 'is not', null)
                .where('ended_at', '<', cutoff)
                .where((w) =>
                  w.or([
                    w('chief_complaint', '<>', ''),
                    w('present_illness', '<>', ''),
                    w('past_history', '<>', ''),
                    w('allergies', '<>', ''),
                    w('questions', '<>', ''),
                    w('external_exams_json', '<>', EMPTY_EXTERNAL_EXAMS),
                    w('rating_text', 'is not', null),
                    w('published_at', 'is not', null),
                  ]),
                )
                .limit(size),
            )
            .executeTakeFirst()
          return result.numUpdatedRows
        }),
      }
    },
  },

  // Append-only, every transfer part of ledger:check's proof; consultations' order columns,
  // consultation_events and consultation_refunds with it (check.ts reads them).
  ledger: { kept: true },

  'withdrawal-payees': {
    enforce: async ({ db, now, batches }) => {
      const cutoff = retentionCutoff('withdrawal-payees', now)
      return {
        withdrawalPayees: await inBatches(batches, async (size) => {
          const result = await db
            .updateTable('withdrawals')
            .set({
              payee_name_encrypted: null,
              payee_id_number_encrypted: null,
              payee_hospital_name: null,
            })
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('withdrawals')
                .select('id')
                .where('finished_at', 'is not', null)
                .where('finished_at', '<', cutoff)
                .where((w) =>
                  w.or([
                    w('payee_name_encrypted', 'is not', null),
                    w('payee_id_number_encrypted', 'is not', null),
                    w('payee_hospital_name', 'is not', null),
                  ]),
                )
                .limit(size),
            )
            .executeTakeFirst()
          return result.numUpdatedRows
        }),
      }
    },
  },

  'grant-views': {
    enforce: async (ctx) => {
      const cutoff = retentionCutoff('grant-views', ctx.now)
      return {
        grantViews: await deleteBefore(ctx, 'grant_views', 'id', 'last_at', cutoff),
      }
    },
  },

  // A consent's rows go together once it has been withdrawn (or its account deleted) for the
  // period; a consent still given proves the processing going on, and stays. Rows of a consent
  // given again after a withdrawal (a higher seq) stay with it.
  consents: {
    enforce: async ({ db, now, batches }) => {
      const cutoff = retentionCutoff('consents', now)
      return {
        consents: await inBatches(batches, async (size) => {
          const ended = db
            .selectFrom('consents as c')
            .select('c.id')
            .where('c.created_at', '<', cutoff)
            .where((eb) =>
              eb.or([
                eb.exists(
                  eb
                    .selectFrom('consents as w')
                    .select('w.id')
                    .whereRef('w.kind', '=', 'c.kind')
                    .whereRef('w.subject_user_id', '=', 'c.subject_user_id')
                    .where(sql<boolean>`coalesce(w.target_id, '') = coalesce(c.target_id, '')`)
                    .where('w.action', '=', 'withdrawn')
                    .whereRef('w.seq', '>=', 'c.seq')
                    .where('w.created_at', '<', cutoff),
                ),
                eb.exists(
                  eb
                    .selectFrom('users as u')
                    .select('u.id')
                    .whereRef('u.id', '=', 'c.user_id')
                    .where('u.deleted_at', '<', cutoff),
                ),
              ]),
            )
            .limit(size)
          const result = await db.deleteFrom('consents').where('id', 'in', ended).executeTakeFirst()
          return result.numDeletedRows
        }),
      }
    },
  },

  'ai-analyses': {
    enforce: async (ctx) => {
      const cutoff = retentionCutoff('ai-analyses', ctx.now)
      return {
        aiAnalyses: await deleteBefore(ctx, 'ai_analyses', 'id', 'created_at', cutoff),
      }
    },
  },

  // Deletion anonymises at once (profile/account.ts eraseAccount, and mergeUser for a merged
  // account); this keeps them so: a row that a later write, a restore from backup or a hand-run
  // statement gave personal data back loses it again.
  'deleted-accounts': {
    enforce: async ({ db, batches }) => ({
      deletedAccounts: await inBatches(batches, async (size) => {
        const result = await db
          .updateTable('users')
          .set({
            nickname: DELETED_NICKNAME,
            avatar_url: null,
            mobile: null,
            password_hash: null,
            wechat_openid: null,
            gender: 'unknown',
          })
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('users')
              .select('id')
              .where('deleted_at', 'is not', null)
              .where((w) =>
                w.or([
                  w('nickname', '<>', DELETED_NICKNAME),
                  w('avatar_url', 'is not', null),
                  w('mobile', 'is not', null),
                  w('password_hash', 'is not', null),
                  w('wechat_openid', 'is not', null),
                  w('gender', '<>', 'unknown'),
                ]),
              )
              .limit(size),
          )
          .executeTakeFirst()
        return result.numUpdatedRows
      }),
    }),
  },

  'unattached-uploads': {
    enforce: async ({ db, now, store }): Promise<Record<string, number>> => {
      if (!store) return {}
      const before = new Date(retentionCutoff('unattached-uploads', now))
      return {
        feedbackImages: await removeUnattachedFeedbackImages(db, store, before),
        operatorFiles: await removeUnattachedOperatorFiles(db, store, before),
      }
    },
  },

  'consultation-picture-drafts': {
    enforce: async (ctx) => {
      const cutoff = retentionCutoff('consultation-picture-drafts', ctx.now)
      return {
        consultationPictureDrafts: await removePictures(ctx, (size) =>
          ctx.db
            .selectFrom('consultation_pictures')
            .select(['id', 'object_key'])
            .where('consultation_id', 'is', null)
            .where('created_at', '<', cutoff)
            .limit(size)
            .execute(),
        ),
      }
    },
  },

  'expert-applications': {
    enforce: async ({ db, store }): Promise<Record<string, number>> =>
      store ? { expertApplications: await purgeDeletedApplicants(db, store) } : {},
  },

  // The link's own timer ends it at 24 hours (domain/data-export); this catches one whose timer never
  // ran. Without a store the files wait for a run that has one.
  'export-archives': {
    enforce: async ({ db, now, store, batches }) => ({
      exportArchives: store
        ? await inBatches(batches, (size) =>
            expireOverdueExports({ db, store, now: () => now }, size),
          )
        : 0,
    }),
  },
}

/** The rules in the schedule's order, with their enforcement (for the tests and the README). */
export const SCHEDULE = RETENTION_RULES.map((rule) => ({ rule, enforcement: ENFORCEMENT[rule.id] }))
