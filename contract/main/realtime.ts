import { z } from 'zod/mini'
import { IdSchema } from '../common'
import { SERVICES } from '../services'

/*
 * Live delivery (WebSocket) while a conversation, a 患者咨询 or 我的消息 is open. The socket only says
 * that something changed and where; the app then reads it by cursor over HTTP, so a reconnect fetches
 * what it missed and nothing shows twice. Events are pointers, never contents: no health data, no
 * names, no message text ever goes over the socket or through the server's fan-out (NOTIFY).
 *
 * One socket per app at `/main/ws` (the main service's prefix). Browsers cannot set headers on a
 * WebSocket, so the access token is the first message, not a header:
 *
 *   app → server  {type:'auth', token}       first, within 5 s, or the server closes (4401)
 *   server → app  {type:'ready'}             signed in; events follow
 *   app → server  {type:'ping'}              optional; the server also pings at protocol level
 *   server → app  {type:'pong'}
 *   server → app  {type:'event', event}      see RealtimeEvent
 *   server → app  {type:'resync'}            the server may have missed events: refetch by cursor
 *   server → app  {type:'error', message, reason}  then, for every reason but bad-message, a close
 */

/** The socket's path on the reference server (the main service's prefix included). */
export const REALTIME_PATH = '/ws'
export const REALTIME_FULL_PATH = `${SERVICES.main}${REALTIME_PATH}`

/** The largest message the server accepts from an app (an auth message with a token fits easily). */
export const REALTIME_MAX_CLIENT_MESSAGE_BYTES = 4096

/** What happened, as a pointer; a screen that shows it refetches by id or cursor. */
export const RealtimeEventSchema = z.discriminatedUnion('kind', [
  /** A consultation's state changed (paid, accepted, finished, cancelled, refunded, frozen). */
  z.object({ kind: z.literal('consultation.changed'), consultationId: IdSchema }),
  /** A new message in a consultation: fetch the messages after the cursor you hold. */
  z.object({
    kind: z.literal('consultation.message'),
    consultationId: IdSchema,
    /** The new message's cursor (opaque to the app; compare only by asking the server). */
    cursor: z.string(),
  }),
  /** A new order waiting for this expert. */
  z.object({ kind: z.literal('consultation.new'), consultationId: IdSchema }),
  /** 我的消息 changed (a new message, read elsewhere, deleted): refetch the list or the badge. */
  z.object({ kind: z.literal('messages.unread') }),
])
export type RealtimeEvent = z.infer<typeof RealtimeEventSchema>
export type RealtimeEventKind = RealtimeEvent['kind']

export const RealtimeClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().check(z.minLength(1), z.maxLength(512)) }),
  z.object({ type: z.literal('ping') }),
])
export type RealtimeClientMessage = z.infer<typeof RealtimeClientMessageSchema>

/**
 * Why the server refuses or ends a socket; code branches on it, never on the Chinese text.
 * - unauthorized: no auth message in time, or the token is not a live session (close 4401).
 * - session-ended: the session was revoked (logout, password change, deletion) (close 4401).
 * - too-many-sockets: a newer socket of the same account took this one's place (close 4409).
 * - bad-message: an auth message that is not one (the socket stays open while unsigned-in).
 */
export const REALTIME_ERROR_REASONS = [
  'unauthorized',
  'session-ended',
  'too-many-sockets',
  'bad-message',
] as const
export const RealtimeErrorReasonSchema = z.enum(REALTIME_ERROR_REASONS)
export type RealtimeErrorReason = z.infer<typeof RealtimeErrorReasonSchema>

export const REALTIME_MESSAGES: Record<RealtimeErrorReason, string> = {
  unauthorized: '请先登录',
  'session-ended': '登录已失效，请重新登录',
  'too-many-sockets': '连接过多，已断开较早的连接',
  'bad-message': '消息格式不正确',
}

/** WebSocket close codes the server uses (4000-4999 are the application's). */
export const REALTIME_CLOSE_CODES = {
  unauthorized: 4401,
  tooManySockets: 4409,
} as const

export const RealtimeServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('resync') }),
  z.object({ type: z.literal('event'), event: RealtimeEventSchema }),
  z.object({
    type: z.literal('error'),
    message: z.string(),
    reason: z.optional(RealtimeErrorReasonSchema),
  }),
])
export type RealtimeServerMessage = z.infer<typeof RealtimeServerMessageSchema>
