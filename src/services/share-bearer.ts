/**
 * The share-session token (`yxs_…`, issue 9) that DICOMweb reads use while a link visitor looks at
 * a shared exam. Kept apart from services/shares.ts on purpose: records.ts and viewer.ts read it
 * on every thumbnail and frame, and must not pull the grants contract into their chunks.
 *
 * Each shared page holds it while it shows and lets go when it hides or closes; the newest holder
 * wins. Holders rather than one global switch, because when a page closes, the page below may
 * show before or after the closing one lets go: each lets go of its own hold only. Nobody holding
 * (the person's own pages) or a holder with null (a signed-in grantee) means the login's token.
 */
const holders = new Map<object, string | null>()

export function holdShareBearer(holder: object, token: string | null): void {
  // Re-inserted, so the page that showed last is the newest.
  holders.delete(holder)
  holders.set(holder, token)
}

export function releaseShareBearer(holder: object): void {
  holders.delete(holder)
}

export function shareBearer(): string | null {
  let newest: string | null = null
  for (const token of holders.values()) newest = token
  return newest
}

/** Headers that replace the login bearer with the share token (the http wrapper merges them last). */
export function shareBearerHeader(): Record<string, string> {
  const token = shareBearer()
  return token ? { Authorization: `Bearer ${token}` } : {}
}
