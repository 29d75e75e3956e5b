import type { NoticeSettings } from '@contract/main/account'
import type { DB } from '../../db'

/** A person who never changed anything gets every notice: none of them is marketing. */
export const DEFAULT_NOTICE_SETTINGS: NoticeSettings = {
  consultReply: true,
  reportReady: true,
  systemNotice: true,
}

export async function getNoticeSettings(db: DB, userId: string): Promise<NoticeSettings> {
  const row = await db
    .selectFrom('notice_settings')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) return { ...DEFAULT_NOTICE_SETTINGS }
  return {
    consultReply: row.consult_reply === 1,
    reportReady: row.report_ready === 1,
    systemNotice: row.system_notice === 1,
  }
}

/** Saves the fields given and keeps the others; answers the whole settings. */
export async function saveNoticeSettings(
  db: DB,
  userId: string,
  changes: Partial<NoticeSettings>,
  now: Date,
): Promise<NoticeSettings> {
  return db.transaction().execute(async (trx) => {
    const current = await getNoticeSettings(trx, userId)
    const next = { ...current, ...definedOnly(changes) }
    const values = {
      consult_reply: next.consultReply ? 1 : 0,
      report_ready: next.reportReady ? 1 : 0,
      system_notice: next.systemNotice ? 1 : 0,
      updated_at: now.toISOString(),
    }
    await trx
      .insertInto('notice_settings')
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute()
    return next
  })
}

function definedOnly(changes: Partial<NoticeSettings>): Partial<NoticeSettings> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
}
