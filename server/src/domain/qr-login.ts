import { randomUUID } from 'node:crypto'
import type { z } from 'zod/mini'
import type { Session } from '@contract/sso/auth'
import { QR_LOGIN_PREFIX, type QrStatusSchema } from '@contract/main/qr-login'
import type { DB } from '../db'
import type { QrLoginsTable } from '../db/schema'
import { badRequest, forbidden, notFound, tooManyRequests } from '../http/errors'
import {
  hashSecret,
  randomToken,
  sameHash,
  createSession,
  describeWait,
  HOUR,
  isoAfter,
  MINUTE,
  SECOND,
} from './identity'
import { type ClientInfo, describeBrowser, describeLocation, maskIp } from './client-info'
import { clientTag, reserve } from './limits'

export { describeBrowser, maskIp } from './client-info'

type QrStatus = z.infer<typeof QrStatusSchema>

/** Short enough that a photographed QR code is useless soon after; the desktop shows a refresh. */
export const QR_TTL_MS = 2 * MINUTE
/**
 * How long after the phone confirmed the desktop may still collect its session. The desktop polls
 * every second, so a desktop that has not collected it by then has gone away.
 */
export const QR_DELIVERY_GRACE_MS = 60 * SECOND
/** Requests a client address may create per hour: a login page refreshes one every 2 minutes. */
export const QR_CREATE_PER_HOUR = 60

export const QR_INVALID = '二维码已失效，请在电脑上刷新'
export const QR_UNKNOWN = '二维码不存在，请在电脑上刷新'
export const QR_WRONG_SECRET = '无权查询该登录请求'
export const QR_OTHER_SCANNER = '请使用扫码的账号确认登录'
export const QR_SCANNER_ONLY = '请使用 App 内的扫一扫扫描电脑上的二维码'

export interface CreatedQrLogin {
  id: string
  pollSecret: string
  content: string
  expiresAt: string
}

/**
 * A new login request for a desktop browser. The poll secret stays with that browser (stored only
 * hashed): the QR content, which anyone nearby may photograph, is the id alone and cannot collect
 * the session.
 */
export async function createQrLogin(
  db: DB,
  input: { userAgent: string | undefined; ip: string },
  now: Date,
): Promise<CreatedQrLogin> {
  // Reserve first (domain/limits.ts): a burst from one address cannot overrun the count.
  const slot = await reserve(db, {
    key: `qr-ip:${clientTag(input.ip)}`,
    limit: QR_CREATE_PER_HOUR,
    windowMs: HOUR,
    now,
  })
  if (!slot.ok) {
    throw tooManyRequests(`操作过于频繁，请 ${describeWait(slot.retryAfterMs)}后再刷新二维码`)
  }

  // Housekeeping: requests long past their expiry are of no use to anyone.
  await db.deleteFrom('qr_logins').where('expires_at', '<', isoAfter(now, -HOUR)).execute()

  const id = randomUUID()
  const pollSecret = randomToken()
  const expiresAt = isoAfter(now, QR_TTL_MS)
  await db
    .insertInto('qr_logins')
    .values({
      id,
      poll_secret_hash: hashSecret(pollSecret),
      status: 'pending',
      user_id: null,
      browser: describeBrowser(input.userAgent),
      ip_masked: maskIp(input.ip),
      location: describeLocation(input.ip),
      ticket_hash: null,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      scanned_at: null,
      answered_at: null,
      session_delivered_at: null,
    })
    .execute()
  return { id, pollSecret, content: `${QR_LOGIN_PREFIX}${id}`, expiresAt }
}

/** The status the request has now: pending and scanned requests expire with the QR code. */
function currentStatus(row: QrLoginsTable, now: Date): QrStatus {
  if (
    (row.status === 'pending' || row.status === 'scanned') &&
    row.expires_at <= now.toISOString()
  ) {
    return 'expired'
  }
  return row.status as QrStatus
}

async function findRequest(db: DB, id: string): Promise<QrLoginsTable> {
  const row = await db.selectFrom('qr_logins').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound(QR_UNKNOWN)
  return row
}

/**
 * The desktop's poll. After the phone confirmed, the first poll gets a new session for the
 * confirming person and every later one only the status: the session is made at delivery, so no
 * usable token is ever stored, and a conditional update makes sure it is handed out once.
 */
export async function pollQrLogin(
  db: DB,
  input: { id: string; pollSecret: string },
  now: Date,
): Promise<{ status: QrStatus; session?: Session }> {
  const row = await findRequest(db, input.id)
  if (!sameHash(hashSecret(input.pollSecret), row.poll_secret_hash)) {
    throw forbidden(QR_WRONG_SECRET)
  }
  const status = currentStatus(row, now)
  if (status !== 'confirmed' || row.session_delivered_at !== null || row.user_id === null) {
    return { status }
  }
  if (
    row.answered_at &&
    isoAfter(new Date(row.answered_at), QR_DELIVERY_GRACE_MS) <= now.toISOString()
  ) {
    return { status: 'expired' }
  }
  const userId = row.user_id
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('qr_logins')
      .set({ session_delivered_at: now.toISOString() })
      .where('id', '=', row.id)
      .where('session_delivered_at', 'is', null)
      .executeTakeFirst()
    if (Number(claimed.numUpdatedRows) === 0) return { status }
    return { status, session: await createSession(trx, userId, now) }
  })
}

export interface QrRequester {
  id: string
  /** Chrome 120 · Windows */
  browser: string
  /** 203.0.113.* */
  ipMasked: string
  /** 本机, 局域网, 未知位置: no geo database, so never a guessed city */
  location: string
  /** Whether the desktop asked from the same network as the phone now scanning (same masked address). */
  sameNetwork: boolean
  /** When the desktop asked. */
  createdAt: string
  expiresAt: string
}

function requesterOf(row: QrLoginsTable, scannerIp: string): QrRequester {
  return {
    id: row.id,
    browser: row.browser,
    ipMasked: row.ip_masked,
    location: row.location ?? '未知位置',
    sameNetwork: maskIp(scannerIp) === row.ip_masked,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  }
}

/**
 * The phone scanned the code. Only the app's scanner calls this, with what it decoded (`content`,
 * which must be the QR text for this id, and `source: 'scanner'`). The request becomes the scanner's
 * and the answer carries a confirm ticket: random, stored hashed, valid while the code is, delivered
 * only in this answer. answerQrLogin demands it.
 *
 * Why: the id alone travels well (a link with ?id=… someone sends in a chat), and a page that
 * confirms whatever id its URL names lets a stranger's desktop be signed in as whoever taps the link.
 * With the ticket, confirming is only possible on the code path that just scanned, and the app keeps
 * the ticket in memory, never in a URL; a page opened from a link has no ticket and cannot confirm.
 * Scanning again with the same account answers a fresh ticket (the app may have been reopened);
 * any other state, or another account's scan, means the code is spent.
 */
export async function scanQrLogin(
  db: DB,
  input: { id: string; userId: string; content: string; client: ClientInfo },
  now: Date,
): Promise<QrRequester & { ticket: string }> {
  if (input.content.trim() !== `${QR_LOGIN_PREFIX}${input.id}`) throw badRequest(QR_SCANNER_ONLY)
  const row = await findRequest(db, input.id)
  const status = currentStatus(row, now)
  const ticket = randomToken()
  const requester = requesterOf(row, input.client.ip)
  if (status === 'scanned' && row.user_id === input.userId) {
    const renewed = await db
      .updateTable('qr_logins')
      .set({ ticket_hash: hashSecret(ticket) })
      .where('id', '=', row.id)
      .where('status', '=', 'scanned')
      .where('user_id', '=', input.userId)
      .executeTakeFirst()
    if (Number(renewed.numUpdatedRows) === 0) throw badRequest(QR_INVALID)
    return { ...requester, ticket }
  }
  if (status !== 'pending') throw badRequest(QR_INVALID)
  const scanned = await db
    .updateTable('qr_logins')
    .set({
      status: 'scanned',
      user_id: input.userId,
      scanned_at: now.toISOString(),
      ticket_hash: hashSecret(ticket),
    })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  if (Number(scanned.numUpdatedRows) === 0) throw badRequest(QR_INVALID)
  return { ...requester, ticket }
}

function checkTicket(row: QrLoginsTable, userId: string, ticket: string): void {
  if (row.user_id !== userId) throw forbidden(QR_OTHER_SCANNER)
  if (!row.ticket_hash || !sameHash(hashSecret(ticket), row.ticket_hash)) {
    throw forbidden(QR_SCANNER_ONLY)
  }
}

/**
 * What the confirm page shows: where and when the desktop asked. Only for the scanner holding the
 * ticket, so the page cannot be driven by a bare id either.
 */
export async function getQrRequest(
  db: DB,
  input: { id: string; userId: string; ticket: string; client: ClientInfo },
  now: Date,
): Promise<QrRequester & { status: QrStatus }> {
  const row = await findRequest(db, input.id)
  checkTicket(row, input.userId, input.ticket)
  return { ...requesterOf(row, input.client.ip), status: currentStatus(row, now) }
}

/** The scanner confirms (the desktop gets a session at its next poll) or refuses, with its ticket. */
export async function answerQrLogin(
  db: DB,
  input: { id: string; userId: string; approve: boolean; ticket: string },
  now: Date,
): Promise<void> {
  const row = await findRequest(db, input.id)
  const status = currentStatus(row, now)
  if (status === 'scanned') checkTicket(row, input.userId, input.ticket)
  if (status !== 'scanned') throw badRequest(QR_INVALID)
  const answered = await db
    .updateTable('qr_logins')
    .set({
      status: input.approve ? 'confirmed' : 'refused',
      answered_at: now.toISOString(),
      ticket_hash: null,
    })
    .where('id', '=', row.id)
    .where('status', '=', 'scanned')
    .where('user_id', '=', input.userId)
    .where('ticket_hash', '=', hashSecret(input.ticket))
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst()
  if (Number(answered.numUpdatedRows) === 0) throw badRequest(QR_INVALID)
}
