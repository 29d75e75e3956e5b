import type { ConsultMessage } from '@/services/consultations'

/*
 * The conversation as the screen holds it: the server's messages by seq, and the sends still on the
 * way (each with its clientId). Pure, so the rules that keep a message from showing twice are tested
 * without a screen.
 */

/** What one send carries; a retry sends the very same thing with the same clientId. */
export type OutgoingContent =
  | { kind: 'text'; text: string }
  | { kind: 'picture'; pictureId: string; localPath: string }
  | { kind: 'record'; record: { kind: 'exam' | 'report'; id: string }; title: string }

export interface PendingMessage {
  clientId: string
  content: OutgoingContent
  status: 'sending' | 'failed'
  /** The last seq on screen when it was written: its own copy from the server comes after this. */
  afterSeq: number
  /** The server's words when it failed. */
  error: string | null
}

/**
 * New or changed messages into the list: one row per id (a later copy replaces an earlier one, so a
 * 已读 mark read again updates it), ordered by seq.
 */
export function mergeMessages(
  current: readonly ConsultMessage[],
  incoming: readonly ConsultMessage[],
): ConsultMessage[] {
  if (incoming.length === 0) return current as ConsultMessage[]
  const byId = new Map(current.map((message) => [message.id, message]))
  for (const message of incoming) byId.set(message.id, message)
  const bySeq = new Map<number, ConsultMessage>()
  for (const message of byId.values()) bySeq.set(message.seq, message)
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq)
}

export function lastSeqOf(messages: readonly ConsultMessage[]): number {
  return messages.length === 0 ? 0 : messages[messages.length - 1]!.seq
}

function sameContent(message: ConsultMessage, content: OutgoingContent): boolean {
  if (!message.mine || message.kind !== content.kind) return false
  if (content.kind === 'text') return message.text === content.text
  if (content.kind === 'picture') return message.picture?.id === content.pictureId
  return message.record?.kind === content.record.kind && message.record.id === content.record.id
}

/**
 * The sends still to show. A send whose answer was lost may already be in the list, read back by
 * the cursor: each confirmed message of mine after a send's `afterSeq` with the same content stands
 * for one send (at most one), so neither a retry nor a read-back ever shows it twice, and two
 * identical sends still need two confirmed copies before both bubbles go.
 */
export function visiblePending(
  pending: readonly PendingMessage[],
  confirmed: readonly ConsultMessage[],
): PendingMessage[] {
  const used = new Set<string>()
  return pending.filter((send) => {
    const match = confirmed.find(
      (message) =>
        !used.has(message.id) && message.seq > send.afterSeq && sameContent(message, send.content),
    )
    if (!match) return true
    used.add(match.id)
    return false
  })
}

/**
 * Where the next read starts: after the last seq, or earlier when one of my messages is still 未读,
 * so it is read again and its 已读 shows once the other side has read it.
 */
export function cursorOf(messages: readonly ConsultMessage[]): number {
  const unreadMine = messages.find((message) => message.mine && !message.read)
  const last = lastSeqOf(messages)
  return unreadMine ? Math.min(last, unreadMine.seq - 1) : last
}
