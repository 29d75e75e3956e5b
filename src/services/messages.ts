import type { InputOf, OutputOf } from '@contract/endpoint'
import {
  countUnreadMessages as countUnreadMessagesEndpoint,
  deleteMessage as deleteMessageEndpoint,
  getMessage as getMessageEndpoint,
  listMessages as listMessagesEndpoint,
  markMessagesRead as markMessagesReadEndpoint,
  MESSAGE_KIND_LABELS,
  MESSAGE_KINDS,
  type Message,
  type MessageKind,
} from '@contract/main/messages'
import { callEndpoint, type CallOptions } from './api'

/** 我的消息 (contract/main/messages.ts): what the server wrote to the signed-in person. */

export type { Message, MessageKind }
export { MESSAGE_KIND_LABELS, MESSAGE_KINDS }

export type MessageQuery = InputOf<typeof listMessagesEndpoint>
export type MessagePage = OutputOf<typeof listMessagesEndpoint>

// Lists and the Mine badge draw their own loading state.
const QUIET: CallOptions = { loading: false }

/** Newest first, with the unread total. */
export function listMessages(query: MessageQuery): Promise<MessagePage> {
  return callEndpoint(listMessagesEndpoint, query, QUIET)
}

/** The Mine page's badge: a background call, no toast when offline. */
export async function countUnreadMessages(): Promise<number> {
  const answer = await callEndpoint(
    countUnreadMessagesEndpoint,
    {},
    { loading: false, quietOffline: true },
  )
  return answer.total
}

/** Opening a message marks it read on the server. */
export function getMessage(messageId: string): Promise<Message> {
  return callEndpoint(getMessageEndpoint, { messageId }, QUIET)
}

export async function markAllMessagesRead(): Promise<void> {
  await callEndpoint(markMessagesReadEndpoint, { all: true })
}

export async function deleteMessage(messageId: string): Promise<void> {
  await callEndpoint(deleteMessageEndpoint, { messageId })
}
