import type { FastifyInstance } from 'fastify'
import {
  countUnreadMessages,
  deleteMessage,
  getMessage,
  listMessages,
  markMessagesRead,
} from '@contract/main/messages'
import * as messages from '../../domain/messages'
import { currentUser } from '../../http/auth'
import { route } from '../../http/route'

/** Main service, 我的消息 (contract/main/messages.ts): a person's own messages only. */
export default async function mainMessagesRoutes(app: FastifyInstance): Promise<void> {
  route(app, listMessages, async (input, { request }) =>
    messages.listMessages(app.db, currentUser(request).id, input),
  )

  route(app, countUnreadMessages, async (_input, { request }) => ({
    total: await messages.countUnread(app.db, currentUser(request).id),
  }))

  route(app, getMessage, async ({ messageId }, { request }) =>
    messages.openMessage(app.db, currentUser(request).id, messageId, app.now()),
  )

  route(app, markMessagesRead, async (input, { request }) => {
    await messages.markRead(app.db, currentUser(request).id, input, app.now())
    return { ok: true as const }
  })

  route(app, deleteMessage, async ({ messageId }, { request }) => {
    await messages.deleteMessage(app.db, currentUser(request).id, messageId)
    return { ok: true as const }
  })
}
