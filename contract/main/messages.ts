import { z } from 'zod/mini'
import { IdSchema, OkSchema, pageOf, PageQuerySchema } from '../common'
import { defineEndpoint } from '../endpoint'

/*
 * My messages (SPEC section 7, main service "messages (get all, update read, get by id, delete)").
 * The server writes them when something happens (a grant first viewed or received, a report
 * arrived or changed, a consultation answered); nothing is seeded outside demo mode. Issue 9 writes
 * `grant` messages, issue 18 `report` messages and the grantee's `grant`; issue 10 builds the
 * message pages on these calls.
 */

export const MESSAGE_KINDS = ['system', 'grant', 'report', 'consult'] as const
export const MessageKindSchema = z.enum(MESSAGE_KINDS)
export type MessageKind = z.infer<typeof MessageKindSchema>
export const MESSAGE_KIND_LABELS: Record<MessageKind, string> = {
  system: '系统消息',
  grant: '授权提醒',
  report: '报告通知',
  consult: '咨询消息',
}

export const MessageSchema = z.object({
  id: z.string(),
  kind: MessageKindSchema,
  kindLabel: z.string(),
  title: z.string(),
  body: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
  /** Where tapping it goes: a route name of src/routes.ts and its query (null: nowhere). */
  link: z.nullable(z.object({ route: z.string(), params: z.record(z.string(), z.string()) })),
})
export type Message = z.infer<typeof MessageSchema>

export const listMessages = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/messages',
  input: z.extend(PageQuerySchema, { kind: z.optional(MessageKindSchema) }),
  /** Newest first. */
  output: z.extend(pageOf(MessageSchema), { unread: z.number() }),
  auth: true,
  summary: '我的消息（分页，最新在前）',
})

export const countUnreadMessages = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/messages/unread',
  input: z.object({}),
  output: z.object({ total: z.number() }),
  auth: true,
  summary: '未读消息数（“我的”角标）',
})

export const getMessage = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/messages/:messageId',
  input: z.object({ messageId: IdSchema }),
  /** Opening it marks it read. */
  output: MessageSchema,
  auth: true,
  summary: '消息详情（打开即已读）',
})

export const markMessagesRead = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/messages/read',
  input: z.object({
    ids: z.optional(z.array(IdSchema).check(z.maxLength(100, '一次最多 100 条'))),
    /** All of the caller's messages. */
    all: z.optional(z.boolean()),
  }),
  output: OkSchema,
  auth: true,
  summary: '标记已读（指定消息或全部）',
})

export const deleteMessage = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/messages/:messageId',
  input: z.object({ messageId: IdSchema }),
  output: OkSchema,
  auth: true,
  summary: '删除消息',
})
