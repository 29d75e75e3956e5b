import { QR_LOGIN_PREFIX } from '@contract/main/qr-login'

export type ScannedCode = { kind: 'login'; id: string } | { kind: 'unknown' }

export const UNKNOWN_CODE_MESSAGE = '无法识别的二维码'

/** What a scanned text means to this app: only our desktop-login codes are understood today. */
export function parseScanned(content: string): ScannedCode {
  const text = content.trim()
  if (!text.startsWith(QR_LOGIN_PREFIX)) return { kind: 'unknown' }
  const id = text.slice(QR_LOGIN_PREFIX.length)
  // The id travels in a page URL; anything but a plain token is not ours.
  return /^[A-Za-z0-9_-]{1,128}$/.test(id) ? { kind: 'login', id } : { kind: 'unknown' }
}
