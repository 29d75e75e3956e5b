import { listWebOrigins as listWebOriginsEndpoint } from '@contract/main/apps'
import { callEndpoint } from './api'

/** The https origins an operator allowed to open inside the app (contract/main/apps.ts). */
export function listWebOrigins(): Promise<string[]> {
  return callEndpoint(listWebOriginsEndpoint, {}, { loading: false })
}

export type WebCheck =
  | { allowed: true; url: string }
  | { allowed: false; reason: 'invalid' | 'notHttps' | 'notAllowed'; shown: string }

/**
 * Whether `raw` may open: a valid https address whose origin (scheme, host and port exactly) is
 * on the list. Nothing is loaded before this says yes; a look-alike host (nhc.gov.cn.evil.com),
 * a different port, http, or user:pass@ tricks are refused.
 */
export function checkWebAddress(raw: string | undefined, allowed: readonly string[]): WebCheck {
  const shown = (raw ?? '').slice(0, 200)
  let url: URL
  try {
    url = new URL(raw ?? '')
  } catch {
    return { allowed: false, reason: 'invalid', shown }
  }
  if (url.protocol !== 'https:') return { allowed: false, reason: 'notHttps', shown }
  if (url.username || url.password) return { allowed: false, reason: 'notAllowed', shown }
  if (!allowed.includes(url.origin)) return { allowed: false, reason: 'notAllowed', shown }
  return { allowed: true, url: url.href }
}
