import {
  RETENTION_RULES,
  type RetentionRuleId,
  retentionRule,
  shiftByPeriod,
} from '@contract/main/retention'
import type { DB } from '../../db'
import type { ObjectStore } from '../../storage/object-store'
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
    enforce: async ({ db, now, batches }) => {
      const cutoff = retentionCutoff('security-events', now)
      return {
        auditEvents: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('audit_events')
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('audit_events')
                .select('id')
                .where('created_at', '<', cutoff)
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
      }
    },
  },

  'sms-codes': {
    enforce: async ({ db, now, batches }) => {
      const cutoff = retentionCutoff('sms-codes', now)
      return {
        smsCodes: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('sms_codes')
            .where('id', 'in', (eb) =>
              eb.selectFrom('sms_codes').select('id').where('expires_at', '<', cutoff).limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
        codeTickets: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('code_tickets')
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('code_tickets')
                .select('id')
                .where('expires_at', '<', cutoff)
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
        smsOutbox: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('sms_outbox')
            .where('id', 'in', (eb) =>
              eb.selectFrom('sms_outbox').select('id').where('created_at', '<', cutoff).limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
      }
    },
  },

  'limit-counters': {
    enforce: async ({ db, now, batches }) => {
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
        rateEvents: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('rate_events')
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('rate_events')
                .select('id')
                .where('created_at', '<', cutoff)
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
        loginFailures: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('login_failures')
            .where('mobile', 'in', (eb) =>
              eb
                .selectFrom('login_failures')
                .select('mobile')
                .where('updated_at', '<', cutoff)
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
      }
    },
  },

  sessions: {
    enforce: async ({ db, now, batches }) => {
      const cutoff = retentionCutoff('sessions', now)
      return {
        // By refresh_expires_at only: such a session can neither be used nor refreshed, so nothing,
        // reuse detection included, needs it.
        sessions: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('sessions')
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('sessions')
                .select('id')
                .where('refresh_expires_at', '<', cutoff)
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
        shareSessions: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('share_sessions')
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('share_sessions')
                .select('id')
                .where('expires_at', '<', cutoff)
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
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
    enforce: async ({ db, now, batches }) => {
      const cutoff = retentionCutoff('signed-opinions', now)
      return {
        // The database refuses this before 15 years (migration 0033's trigger), whatever asks.
        opinions: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('opinions')
            .where('id', 'in', (eb) =>
              eb.selectFrom('opinions').select('id').where('signed_at', '<', cutoff).limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
        signedMessages: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('consultation_messages')
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('consultation_messages')
                .select('id')
                .where('signed_at', 'is not', null)
                .where('signed_at', '<', cutoff)
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
        examRequests: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('exam_requests')
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('exam_requests')
                .select('id')
                .where('created_at', '<', cutoff)
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
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
    enforce: async ({ db, now, batches }) => {
      const cutoff = retentionCutoff('grant-views', now)
      return {
        grantViews: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('grant_views')
            .where('id', 'in', (eb) =>
              eb.selectFrom('grant_views').select('id').where('last_at', '<', cutoff).limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
      }
    },
  },

  'ai-analyses': {
    enforce: async ({ db, now, batches }) => {
      const cutoff = retentionCutoff('ai-analyses', now)
      return {
        aiAnalyses: await inBatches(batches, async (size) => {
          const result = await db
            .deleteFrom('ai_analyses')
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('ai_analyses')
                .select('id')
                .where('created_at', '<', cutoff)
                .limit(size),
            )
            .executeTakeFirst()
          return result.numDeletedRows
        }),
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

  // data-export (migration 0032) registers its archives' purge here: { enforce: ... }.
  'export-archives': { pluggedIn: 'data-export' },
}

/** The rules in the schedule's order, with their enforcement (for the tests and the README). */
export const SCHEDULE = RETENTION_RULES.map((rule) => ({ rule, enforcement: ENFORCEMENT[rule.id] }))
