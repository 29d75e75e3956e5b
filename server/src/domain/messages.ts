import { randomUUID } from 'node:crypto'
import {
  MESSAGE_KIND_LABELS,
  type Message,
  type MessageKind,
  MessageKindSchema,
} from '@contract/main/messages'
import type { DB } from '../db'
import type { MessagesTable } from '../db/schema'
import { badRequest, notFound } from '../http/errors'

/*
 * The app's messages (contract/main/messages.ts). The server writes them when something happens
 * (issue 9: a grant first viewed); a person reads, marks and deletes only their own. Another
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

/**
 * Writes a message to a person; answers its id. Callable inside a transaction (pass the trx). A
 * child under 14 (亲情卡) has no login to read it, so each of their active guardians gets a copy.
 */
export async function createMessage(db: DB, input: NewMessage, now: Date): Promise<string> {
  // A kind outside the contract would break every list that carries it: refuse at the source.
  const kind = MessageKindSchema.parse(input.kind)
  const guardians = await db
    .selectFrom('family_links')
    .select('manager_user_id')
    .where('member_user_id', '=', input.userId)
    .where('kind', '=', 'child')
    .where('ended_at', 'is', null)
    .execute()
  const id = randomUUID()
  const row = {
    kind,
    title: input.title,
    body: input.body,
    link: input.link === null ? null : JSON.stringify(input.link),
    read_at: null,
    created_at: now.toISOString(),
  }
  await db
    .insertInto('messages')
    .values([
      { ...row, id, user_id: input.userId },
      ...guardians.map((g) => ({ ...row, id: randomUUID(), user_id: g.manager_user_id })),
    ])
    .execute()
  return id
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

/** Newest first; `unread` counts every unread message of the person, whatever the kind filter. */
export async function listMessages(
  db: DB,
  userId: string,
  query: { page: number; pageSize: number; kind?: MessageKind | undefined },
): Promise<{ items: Message[]; total: number; unread: number }> {
  let base = db.selectFrom('messages').where('user_id', '=', userId)
  if (query.kind) base = base.where('kind', '=', query.kind)
  const [rows, count, unread] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    countUnread(db, userId),
  ])
  return { items: rows.map(toMessage), total: Number(count.n), unread }
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
