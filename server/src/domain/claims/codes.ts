import { EXAM_QR_PREFIX, EXAM_QR_TTL_SECONDS } from '@contract/main/claims'
import { FILM_CODE_PARAM } from '@contract/scan/codes'
import { keyedHash, openWithSecret, sameHash, sealWithSecret } from '../identity'

/*
 * The codes of the claim and scan flows, all derived from SECRET_KEY and kept nowhere:
 *
 * - film-bag code: `<examId in base64url>.<HMAC, 128 bits>`. Printed on paper, so it must stay short
 *   and valid for as long as the bag exists; it is a signature, not a secret store, so it survives
 *   restarts and works on every process. It names the exam, and the HMAC makes it impossible to guess
 *   or alter (2^128 tries). Changing SECRET_KEY voids every printed code (as it voids hospital keys).
 * - exam QR code (the owner's 二维码): the exam, the owner and an expiry, sealed with AES-256-GCM, so
 *   a terminal learns nothing from the text itself and a code stops working after 5 minutes.
 * - claim ticket: the exam, the account that looked it up, how (query/scan) and an expiry, sealed the
 *   same way: the step between the lookup and the SMS code carries no state on the server, and a
 *   ticket taken from someone else's screen is refused for any other account.
 */

const FILM_LABEL = 'film-code'
/** Bytes of the film code's HMAC kept: 128 bits. */
const FILM_MAC_BYTES = 16

function filmMac(examId: string): string {
  return Buffer.from(keyedHash(FILM_LABEL, examId), 'hex')
    .subarray(0, FILM_MAC_BYTES)
    .toString('base64url')
}

export function filmCodeOf(examId: string): string {
  return `${Buffer.from(examId, 'utf8').toString('base64url')}.${filmMac(examId)}`
}

/** The exam a film-bag code names, or null when it is not one of ours (altered, or made up). */
export function examOfFilmCode(code: string): string | null {
  const match = /^([A-Za-z0-9_-]{1,120})\.([A-Za-z0-9_-]{22})$/.exec(code)
  if (!match) return null
  const examId = Buffer.from(match[1]!, 'base64url').toString('utf8')
  if (examId === '' || Buffer.from(examId, 'utf8').toString('base64url') !== match[1]) return null
  return sameHash(filmMac(examId), match[2]!) ? examId : null
}

/** The link printed as the QR code: the report page of the app with the code. */
export function filmCodeUrl(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/pages/personalReport/detail2?${FILM_CODE_PARAM}=${encodeURIComponent(code)}`
}

/**
 * The film code inside a scanned text: the link (any origin: the app may be served from several),
 * or the bare code.
 */
export function filmCodeIn(content: string): string | null {
  const text = content.trim()
  if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(text)) return text
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return null
  }
  if (!/\/pages\/personalReport\/detail2$/.test(url.pathname)) return null
  return url.searchParams.get(FILM_CODE_PARAM)
}

// ---------------------------------------------------------------------------------------------------
// Sealed tokens

interface Sealed {
  /** What the token is for; a token of one kind is never accepted as another. */
  k: string
  /** Expiry, ms since the epoch. */
  x: number
}

// The sealed form (`v1.<iv>.<tag>.<ciphertext>`, base64url parts) is already safe in URLs and QR
// codes; wrapping it again would only make the code denser.
function seal<T extends Sealed>(token: T): string {
  return sealWithSecret(JSON.stringify(token))
}

function open<T extends Sealed>(text: string, kind: T['k'], now: Date): T | 'expired' | null {
  if (text.length > 1000 || !/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/.test(text)) return null
  let token: T
  try {
    token = JSON.parse(openWithSecret(text)) as T
  } catch {
    // Altered, truncated, or sealed under another key.
    return null
  }
  if (token.k !== kind || typeof token.x !== 'number') return null
  return token.x <= now.getTime() ? 'expired' : token
}

interface ExamQrToken extends Sealed {
  k: 'exam-qr'
  e: string
  u: string
}

export const EXAM_QR_TTL_MS = EXAM_QR_TTL_SECONDS * 1000

export function examQrCode(
  examId: string,
  userId: string,
  now: Date,
): { content: string; expiresAt: string } {
  const expires = now.getTime() + EXAM_QR_TTL_MS
  const token = seal<ExamQrToken>({ k: 'exam-qr', e: examId, u: userId, x: expires })
  return { content: `${EXAM_QR_PREFIX}${token}`, expiresAt: new Date(expires).toISOString() }
}

export type OpenedExamQr =
  | { ok: true; examId: string; userId: string; expiresAt: string }
  | { ok: false; reason: 'invalid' | 'expired' }

export function openExamQrCode(content: string, now: Date): OpenedExamQr {
  const text = content.trim()
  if (!text.startsWith(EXAM_QR_PREFIX)) return { ok: false, reason: 'invalid' }
  const token = open<ExamQrToken>(text.slice(EXAM_QR_PREFIX.length), 'exam-qr', now)
  if (token === null) return { ok: false, reason: 'invalid' }
  if (token === 'expired') return { ok: false, reason: 'expired' }
  return { ok: true, examId: token.e, userId: token.u, expiresAt: new Date(token.x).toISOString() }
}

export type ClaimVia = 'query' | 'scan'

interface ClaimTicketToken extends Sealed {
  k: 'claim'
  e: string
  u: string
  v: ClaimVia
}

export function claimTicket(
  input: { examId: string; userId: string; via: ClaimVia },
  now: Date,
  ttlMs: number,
): string {
  return seal<ClaimTicketToken>({
    k: 'claim',
    e: input.examId,
    u: input.userId,
    v: input.via,
    x: now.getTime() + ttlMs,
  })
}

export type OpenedClaimTicket =
  | { ok: true; examId: string; via: ClaimVia }
  | { ok: false; reason: 'invalid' | 'expired' | 'other-user' }

export function openClaimTicket(ticket: string, userId: string, now: Date): OpenedClaimTicket {
  const token = open<ClaimTicketToken>(ticket, 'claim', now)
  if (token === null) return { ok: false, reason: 'invalid' }
  if (token === 'expired') return { ok: false, reason: 'expired' }
  if (token.u !== userId) return { ok: false, reason: 'other-user' }
  return { ok: true, examId: token.e, via: token.v }
}
