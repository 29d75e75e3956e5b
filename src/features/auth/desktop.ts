/**
 * Scan login's desktop side exists only in a browser: the mini-program build gets this module, which
 * never offers it and ships no QR library. The H5 build resolves desktop.h5.ts instead.
 */

export function isDesktopScreen(): boolean {
  return false
}

export function qrDataUrl(_content: string): Promise<string> {
  return Promise.reject(new Error('QR codes are drawn only in the browser build'))
}
