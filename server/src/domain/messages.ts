import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import {
  MESSAGE_KIND_LABELS,
  type Message,
  type MessageKind,
  MessageKindSchema,
} from '@contract/main/messages'
import type { NoticeSettings } from '@contract/main/account'
import type { DB } from '../db'
import { type Page, page, type PageQuery } from '../db/paging'
import type { MessagesTable } from '../db/schema'
import { badRequest, notFound } from '../http/errors'
import type { SubscribeMessageProvider, SubscribeNotice } from '../providers/subscribe-message'

/*
 * The app's messages (contract/main/messages.ts). The server writes them when something happens
 * (a grant first viewed, a grant received, a hospital report arrived or changed, a feedback reply),
 * in the transaction of that event; a person reads, marks and deletes only their own. Another
 * person's message id answers 404 like a missing one, so ids reveal nothing.
 */

export const MESSAGE_NOT_FOUND = '消息不存在或已删除'
export const MESSAGE_NOTHING_TO_MARK = '请选择要标记为已读的消息'

export interface MessageLink {
  route: string
  params: Record<string, string>
}

export interface NewMessage {
  userId: string
  kind: MessageKind
  title: string
  body: string
  link: MessageLink | null
}

/** The active guardians of a child under 14 (亲情卡), who read what is written to the child. */
async function guardiansOf(db: DB, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('family_links')
    .select('manager_user_id')
    .where('member_user_id', '=', userId)
    .where('kind', '=', 'child')
    .where('ended_at', 'is', null)
    .execute()
  return rows.map((row) => row.manager_user_id)
}

async function insertMessages(
  db: DB,
  input: NewMessage,
  userIds: readonly string[],
  now: Date,
): Promise<string[]> {
  // A kind outside the contract would break every list that carries it: refuse at the source.
  const kind = MessageKindSchema.parse(input.kind)
  const rows = userIds.map((userId) => ({
    id: randomUUID(),
    user_id: userId,
    kind,
    title: input.title,
    body: input.body,
    link: input.link === null ? null : JSON.stringify(input.link),
    read_at: null,
    created_at: now.toISOString(),
  }))
  if (rows.length > 0) await db.insertInto('messages').values(rows).execute()
  return rows.map((row) => row.id)
}

/**
 * Writes a message to a person; answers its id. Callable inside a transaction (pass the trx). A
 * child under 14 (亲情卡) has no login to read it, so each of their active guardians gets a copy.
 */
export async function createMessage(db: DB, input: NewMessage, now: Date): Promise<string> {
  const [id] = await insertMessages(
    db,
    input,
    [input.userId, ...(await guardiansOf(db, input.userId))],
    now,
  )
  return id!
}

/** A 通知设置 switch (contract/main/account.ts NoticeSettings). */
export type NoticeSetting = keyof NoticeSettings

const SETTING_COLUMNS = {
  consultReply: 'consult_reply',
  reportReady: 'report_ready',
  systemNotice: 'system_notice',
} as const satisfies Record<NoticeSetting, string>

/**
 * A message that a 通知设置 switch governs (报告出具 for reports): written like createMessage, to the
 * person and a child's guardians, but only to those of them who have not turned the switch off (no
 * row: every switch is on). Answers the accounts it reached, for the subscribe message after the
 * transaction commits.
 */
export async function notify(
  db: DB,
  input: NewMessage,
  setting: NoticeSetting,
  now: Date,
): Promise<string[]> {
  const people = [input.userId, ...(await guardiansOf(db, input.userId))]
  const off = await db
    .selectFrom('notice_settings')
    .select('user_id')
    .where('user_id', 'in', people)
    .where(SETTING_COLUMNS[setting], '=', 0)
    .execute()
  // No row means every switch on (profile/notice-settings.ts DEFAULT_NOTICE_SETTINGS).
  const wanted = people.filter((person) => !off.some((row) => row.user_id === person))
  await insertMessages(db, input, wanted, now)
  return wanted
}

/**
 * Sends WeChat subscribe messages, after the event's transaction has committed (a push that rolled
 * back must not have rung a phone). One failing adapter call never fails the event: it is logged.
 */
export async function sendSubscribeNotices(
  subscribe: SubscribeMessageProvider,
  log: FastifyBaseLogger,
  notices: readonly SubscribeNotice[],
): Promise<void> {
  for (const notice of notices) {
    try {
      const sent = await subscribe.send(notice)
      if (!sent.sent) {
        log.info({ template: notice.template, reason: sent.reason }, 'subscribe message skipped')
      }
    } catch (error) {
      log.error({ err: error, template: notice.template }, 'subscribe message failed')
    }
  }
}

function parseLink(text: string | null): MessageLink | null {
  if (text === null) return null
  try {
    const value = JSON.parse(text) as MessageLink
    return typeof value?.route === 'string'
      ? { route: value.route, params: value.params ?? {} }
      : null
  } catch {
    // A link is a convenience: a damaged one leaves the message readable, pointing nowhere.
    return null
  }
}

export function toMessage(row: MessagesTable): Message {
  const kind = row.kind as MessageKind
  return {
    id: row.id,
    kind,
    kindLabel: MESSAGE_KIND_LABELS[kind] ?? kind,
    title: row.title,
    body: row.body,
    read: row.read_at !== null,
    createdAt: row.created_at,
    link: parseLink(row.link),
  }
}

export async function countUnread(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** 我的消息 defaults to 20 a page when the query names no size, not the spec's 10. */
export const MESSAGES_PAGE_SIZE = 20

/** Newest first; `unread` counts every unread message of the person, whatever the kind filter. */
export async function listMessages(
  db: DB,
  userId: string,
  query: PageQuery & { kind?: MessageKind | undefined },
): Promise<Page<Message> & { unread: number }> {
  let base = db.selectFrom('messages').where('user_id', '=', userId)
  if (query.kind) base = base.where('kind', '=', query.kind)
  const [found, unread] = await Promise.all([
    page(query, base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'), base, {
      size: MESSAGES_PAGE_SIZE,
    }),
    countUnread(db, userId),
  ])
  return { ...found, items: found.items.map(toMessage), unread }
}

/** Opening a message marks it read (once: the first reading time is kept). */
export async function openMessage(
  db: DB,
  userId: string,
  messageId: string,
  now: Date,
): Promise<Message> {
  await db
    .updateTable('messages')
    .set({ read_at: now.toISOString() })
    .where('id', '=', messageId)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .execute()
  const row = await db
    .selectFrom('messages')
    .selectAll()
    .where('id', '=', messageId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) throw notFound(MESSAGE_NOT_FOUND)
  return toMessage(row)
}

/** Marks the named messages (only the caller's; others' ids are ignored) or all of them read. */
export async function markRead(
  db: DB,
  userId: string,
  input: { ids?: string[] | undefined; all?: boolean | undefined },
  now: Date,
): Promise<void> {
  if (!input.all && (!input.ids || input.ids.length === 0))
    throw badRequest(MESSAGE_NOTHING_TO_MARK)
  let update = db
    .updateTable('messages')
    .set({ read_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
  if (!input.all) update = update.where('id', 'in', input.ids ?? [])
  await update.execute()
}

export async function deleteMessage(db: DB, userId: string, messageId: string): Promise<void> {
  const result = await db
    .deleteFrom('messages')
    .where('id', '=', messageId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (Number(result.numDeletedRows) === 0) throw notFound(MESSAGE_NOT_FOUND)
}
