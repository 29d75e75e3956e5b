import { QR_LOGIN_PREFIX } from '@contract/main/qr-login'
import { FILM_CODE_PARAM } from '@contract/scan/codes'
import { ROOM_CODE_PARAMS } from '@contract/scan/hospital-reports'
import { routeByName } from '@/routes'
import { routeUrl } from '@/services/navigate'

export type ScannedCode =
  | { kind: 'login'; id: string }
  /** A hospital's film-bag code: the report page link (any origin) with its signed code. */
  | { kind: 'film'; code: string }
  /** A hospital's room (or terminal) code: 院内报告 of that hospital, from that room. */
  | { kind: 'room'; hospitalId: string; roomId?: string }
  | { kind: 'unknown' }

const ID = /^[\w.-]{1,64}$/

function urlOf(text: string): URL | null {
  try {
    return new URL(text)
  } catch {
    return null
  }
}

/** The hospital and room of a scanned room-code link (any origin), or null. */
function roomCodeOf(text: string): { hospitalId: string; roomId?: string } | null {
  const url = urlOf(text)
  if (!url || url.pathname !== `/${routeByName('reportIn').path}`) return null
  const hospitalId = url.searchParams.get(ROOM_CODE_PARAMS.hospital)
  const roomId = url.searchParams.get(ROOM_CODE_PARAMS.room)
  if (hospitalId === null || !ID.test(hospitalId)) return null
  if (roomId === null) return { hospitalId }
  return ID.test(roomId) ? { hospitalId, roomId } : null
}

/** The film-bag code of a scanned link to the report page, or null. */
function filmCodeOf(text: string): string | null {
  const url = urlOf(text)
  if (!url || url.pathname !== routeUrl('filmReport')) return null
  const code = url.searchParams.get(FILM_CODE_PARAM)
  return code !== null && /^[\w.-]{10,300}$/.test(code) ? code : null
}

export const UNKNOWN_CODE_MESSAGE = '无法识别的二维码'

/**
 * What a scanned text means to this app: our desktop-login codes, hospitals' film-bag codes and
 * their room codes (院内报告).
 */
export function parseScanned(content: string): ScannedCode {
  const text = content.trim()
  const film = filmCodeOf(text)
  if (film !== null) return { kind: 'film', code: film }
  const room = roomCodeOf(text)
  if (room !== null) return { kind: 'room', ...room }
  if (!text.startsWith(QR_LOGIN_PREFIX)) return { kind: 'unknown' }
  const id = text.slice(QR_LOGIN_PREFIX.length)
  // The id travels in a page URL; anything but a plain token is not ours.
  return /^[A-Za-z0-9_-]{1,128}$/.test(id) ? { kind: 'login', id } : { kind: 'unknown' }
}
