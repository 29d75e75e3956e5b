/**
 * The share-session token (`yxs_…`, issue 9) that DICOMweb reads use while a link visitor looks at
 * a shared exam. Kept apart from services/shares.ts on purpose: records.ts and viewer.ts read it
 * on every thumbnail and frame, and must not pull the grants contract into their chunks.
 *
 * A shared page sets it when it shows and clears it when it hides, so the person's own pages
 * never send it; null means "the login session's token, as usual" (a signed-in grantee).
 */
let active: string | null = null

export function setShareBearer(token: string | null): void {
  active = token
}

export function shareBearer(): string | null {
  return active
}

/** Headers that replace the login bearer with the share token (the http wrapper merges them last). */
export function shareBearerHeader(): Record<string, string> {
  return active ? { Authorization: `Bearer ${active}` } : {}
}
