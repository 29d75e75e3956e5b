/**
 * The ticket that opens private reports (unlockReports): good for every private report of this login
 * for a few minutes, so it is kept in memory only (never stored: a phone left unlocked on a table must
 * not keep it) and reused until shortly before it runs out.
 */
let current: { ticket: string; expiresAt: number } | null = null

/** Seconds of margin: a ticket about to expire would fail on its way to the server. */
const MARGIN_MS = 15 * 1000

export function rememberUnlockTicket(ticket: string, expiresInSeconds: number, now = Date.now()) {
  current = { ticket, expiresAt: now + expiresInSeconds * 1000 }
}

export function unlockTicket(now = Date.now()): string | null {
  if (!current || current.expiresAt - MARGIN_MS <= now) return null
  return current.ticket
}

export function forgetUnlockTicket() {
  current = null
}
