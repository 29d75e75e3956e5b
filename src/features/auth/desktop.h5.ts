import { userAgent } from '@/platform/device'

/** The breakpoint where the login page stops being a phone screen. */
export const DESKTOP_MIN_WIDTH = 768

const MOBILE_UA = /Android|iPhone|iPad|iPod|Mobile|HarmonyOS|MicroMessenger/i

/**
 * A desktop browser opening the login page: a wide window on a device that does not say it is a
 * phone. Both, because a phone in landscape can be wide and a narrow desktop window is still a desktop
 * whose owner may want to scan.
 */
export function isDesktopScreen(): boolean {
  if (typeof window === 'undefined') return false
  if (MOBILE_UA.test(userAgent() ?? '')) return false
  return window.innerWidth >= DESKTOP_MIN_WIDTH || !('ontouchstart' in window)
}

/** The QR code as a PNG data URL; the library loads only when a desktop needs it. */
export async function qrDataUrl(content: string): Promise<string> {
  const { toDataURL } = await import('qrcode')
  return toDataURL(content, { margin: 1, width: 360, errorCorrectionLevel: 'M' })
}
