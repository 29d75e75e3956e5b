import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { GrantView } from '@contract/main/grants'
import type { GeoLocator } from '../../providers/geo'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { SubscribeMessageProvider } from '../../providers/subscribe-message'
import { describeLocation } from '../client-info'
import { createMessage } from '../messages'
import { findVisibleExam, managedPeople, personLabels } from '../records'
import { grantRecords, SHARE_VISITOR } from './grants'

/*
 * The view log (谁看过, issue 9). One view = one viewer session (a grantee's login session, or one
 * opening of a link) on one record (an exam's images: metadata, frames, thumbnails, rendered, files
 * all count as the exam; or a report). The first read inserts the row; later reads move last_at at
 * most once a minute, and within that minute this process does not even ask the database (a viewer
 * scrolling a CT fetches hundreds of frames). The first view of a grant (one atomic UPDATE of
 * first_viewed_at, so exactly once under a burst and across processes) tells the owner: a message
 * in the app, and a WeChat subscribe message when configured.
 */

export const VIEW_TOUCH_MS = 60_000
const MEMO_MAX = 20_000

export interface ViewEvent {
  grantId: string
  /** The grantee's login session id, or the share session id. */
  viewerSession: string
  /** The grantee's account; null for a link visitor. */
  viewerUserId: string | null
  recordKind: 'exam' | 'report'
  recordId: string
  examId: string
  ip: string
}

export interface ViewLogContext {
  db: DB
  cipher: FieldCipher
  subscribe: SubscribeMessageProvider
  log: FastifyBaseLogger
  /** The place of a viewer's address (providers/geo.ts); absent: 本机 / 局域网 / 未知位置 only. */
  geo?: GeoLocator
}

/** When each (grant, session, record) was last written by this process. */
const memo = new Map<string, number>()

function remember(key: string, at: number): void {
  memo.delete(key)
  memo.set(key, at)
  if (memo.size > MEMO_MAX) {
    // Maps iterate in insertion order: the first key is the least recently written.
    const oldest = memo.keys().next().value
    if (oldest !== undefined) memo.delete(oldest)
  }
}

/** Logs one read through a grant. Never fails the read it belongs to (errors are logged). */
export async function noteView(ctx: ViewLogContext, event: ViewEvent, now: Date): Promise<void> {
  const key = `${event.grantId}\u0000${event.viewerSession}\u0000${event.recordKind}\u0000${event.recordId}`
  const last = memo.get(key)
  if (last !== undefined && now.getTime() - last < VIEW_TOUCH_MS && now.getTime() >= last) return
  remember(key, now.getTime())
  try {
    const at = now.toISOString()
    const inserted = await ctx.db
      .insertInto('grant_views')
      .values({
        id: randomUUID(),
        grant_id: event.grantId,
        viewer_session: event.viewerSession,
        viewer_user_id: event.viewerUserId,
        record_kind: event.recordKind,
        record_id: event.recordId,
        exam_id: event.examId,
        place: describeLocation(event.ip, ctx.geo),
        first_at: at,
        last_at: at,
      })
      .onConflict((oc) =>
        oc.columns(['grant_id', 'viewer_session', 'record_kind', 'record_id']).doNothing(),
      )
      .returning('id')
      .executeTakeFirst()
    if (!inserted) {
      const cutoff = new Date(now.getTime() - VIEW_TOUCH_MS).toISOString()
      await ctx.db
        .updateTable('grant_views')
        .set({ last_at: at })
        .where('grant_id', '=', event.grantId)
        .where('viewer_session', '=', event.viewerSession)
        .where('record_kind', '=', event.recordKind)
        .where('record_id', '=', event.recordId)
        .where('last_at', '<=', cutoff)
        .execute()
      return
    }
    await firstViewNotice(ctx, event, now)
  } catch (error) {
    memo.delete(key)
    ctx.log.error({ err: error }, 'grant view not logged')
  }
}

async function firstViewNotice(ctx: ViewLogContext, event: ViewEvent, now: Date): Promise<void> {
  const at = now.toISOString()
  const first = await ctx.db
    .updateTable('grants')
    .set({ first_viewed_at: at })
    .where('id', '=', event.grantId)
    .where('first_viewed_at', 'is', null)
    .returning(['person_user_id', 'audience'])
    .executeTakeFirst()
  if (!first) return
  const viewer = event.viewerUserId
    ? ((await personLabels(ctx.db, ctx.cipher, [event.viewerUserId])).get(event.viewerUserId)
        ?.nameMasked ?? '对方')
    : SHARE_VISITOR
  const records = (await grantRecords(ctx.db, [event.grantId])).get(event.grantId) ?? []
  const record = records.find((r) => r.kind === event.recordKind && r.id === event.recordId)
  const what = record ? `「${record.title}」` : '您授权的记录'
  const place = describeLocation(event.ip, ctx.geo)
  await createMessage(
    ctx.db,
    {
      userId: first.person_user_id,
      kind: 'grant',
      title: '您的授权已被查看',
      body: `${viewer}（${place}）查看了${what}。可在授权记录中查看详情或撤销授权。`,
      // A route name of src/routes.ts (contract/main/messages.ts), which the app turns into its page.
      link: { route: 'grantList', params: { grantId: event.grantId } },
    },
    now,
  )
  const sent = await ctx.subscribe.send({
    userId: first.person_user_id,
    template: 'grant-viewed',
    data: { viewer, record: record?.title ?? '授权记录', time: at },
  })
  if (!sent.sent)
    ctx.log.info({ reason: sent.reason }, 'grant first-view subscribe message skipped')
}

/** The log rows for the given grants (or one exam's), newest first. */
async function viewsWhere(
  db: DB,
  cipher: FieldCipher,
  where: { grantId: string } | { examId: string; personIds: string[] },
): Promise<GrantView[]> {
  let query = db
    .selectFrom('grant_views')
    .innerJoin('grants', 'grants.id', 'grant_views.grant_id')
    .selectAll('grant_views')
    .select('grants.audience')
    .orderBy('grant_views.last_at', 'desc')
    .orderBy('grant_views.id', 'desc')
    .limit(500)
  if ('grantId' in where) {
    query = query.where('grant_views.grant_id', '=', where.grantId)
  } else {
    query = query
      .where('grant_views.exam_id', '=', where.examId)
      .where('grants.person_user_id', 'in', where.personIds)
  }
  const rows = await query.execute()
  if (rows.length === 0) return []
  const [records, labels] = await Promise.all([
    grantRecords(db, [...new Set(rows.map((r) => r.grant_id))]),
    personLabels(
      db,
      cipher,
      rows.flatMap((r) => (r.viewer_user_id ? [r.viewer_user_id] : [])),
    ),
  ])
  return rows.flatMap((row) => {
    const record = (records.get(row.grant_id) ?? []).find(
      (r) => r.kind === row.record_kind && r.id === row.record_id,
    )
    if (!record) return []
    const account = row.audience === 'account'
    return [
      {
        grantId: row.grant_id,
        viewer: account
          ? ((row.viewer_user_id && labels.get(row.viewer_user_id)?.nameMasked) ?? '已注销用户')
          : SHARE_VISITOR,
        viewerKind: account ? ('account' as const) : ('link' as const),
        record,
        firstAt: row.first_at,
        lastAt: row.last_at,
        place: row.place,
      },
    ]
  })
}

/** listGrantViews: the grant must be the caller's or a managed member's (ownedGrant first). */
export async function listGrantViews(
  db: DB,
  cipher: FieldCipher,
  grantId: string,
): Promise<GrantView[]> {
  return viewsWhere(db, cipher, { grantId })
}

/** 谁看过 on an exam the caller may see as their own or a member's. */
export async function listRecordViews(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  examId: string,
): Promise<GrantView[]> {
  await findVisibleExam(db, cipher, { kind: 'user', userId }, examId)
  const members = await managedPeople(db, cipher, userId)
  return viewsWhere(db, cipher, {
    examId,
    personIds: [userId, ...members.map((m) => m.personId)],
  })
}

/** Forgets what this process wrote (tests moving the clock backwards). */
export function resetViewMemo(): void {
  memo.clear()
}
