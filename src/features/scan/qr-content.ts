import { QR_LOGIN_PREFIX } from '@contract/main/qr-login'
import { FILM_CODE_PARAM } from '@contract/scan/codes'
import { routeUrl } from '@/services/navigate'

export type ScannedCode =
  | { kind: 'login'; id: string }
  /** A hospital's film-bag code: the report page link (any origin) with its signed code. */
  | { kind: 'film'; code: string }
  | { kind: 'unknown' }

/** The film-bag code of a scanned link to the report page, or null. */
function filmCodeOf(text: string): string | null {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return null
  }
  if (url.pathname !== routeUrl('filmReport')) return null
  const code = url.searchParams.get(FILM_CODE_PARAM)
  return code !== null && /^[\w.-]{10,300}$/.test(code) ? code : null
}

export const UNKNOWN_CODE_MESSAGE = '无法识别的二维码'

/** What a scanned text means to this app: our desktop-login codes and hospitals' film-bag codes. */
export function parseScanned(content: string): ScannedCode {
  const text = content.trim()
  const film = filmCodeOf(text)
  if (film !== null) return { kind: 'film', code: film }
  if (!text.startsWith(QR_LOGIN_PREFIX)) return { kind: 'unknown' }
  const id = text.slice(QR_LOGIN_PREFIX.length)
  // The id travels in a page URL; anything but a plain token is not ours.
  return /^[A-Za-z0-9_-]{1,128}$/.test(id) ? { kind: 'login', id } : { kind: 'unknown' }
}
