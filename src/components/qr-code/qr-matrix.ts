import { create } from 'qrcode/lib/core/qrcode'
import type { Context2D } from '@/platform/canvas'

/** UTF-8 bytes of a text (the codes are ASCII; anything else is still encoded correctly). */
export function utf8(text: string): number[] {
  const bytes: number[] = []
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    if (code < 0x80) bytes.push(code)
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63))
    else if (code < 0x10000)
      bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63))
    else
      bytes.push(
        0xf0 | (code >> 18),
        0x80 | ((code >> 12) & 63),
        0x80 | ((code >> 6) & 63),
        0x80 | (code & 63),
      )
  }
  return bytes
}

/** Modules of white around the symbol: the standard's 4, so any scanner finds the finders. */
export const QR_QUIET_MODULES = 4

export interface QrMatrix {
  /** Modules per side, quiet zone included. */
  size: number
  dark: (row: number, column: number) => boolean
}

/** The QR symbol of a text (error correction M, as WeChat's own codes), quiet zone included. */
export function qrMatrix(text: string): QrMatrix {
  // Byte mode from our own UTF-8 bytes: qrcode would reach for TextEncoder, which the mini-program's
  // JS engine does not promise.
  const { modules } = create([{ data: utf8(text), mode: 'byte' }], { errorCorrectionLevel: 'M' })
  const inner = modules.size
  return {
    size: inner + 2 * QR_QUIET_MODULES,
    dark: (row, column) => {
      const r = row - QR_QUIET_MODULES
      const c = column - QR_QUIET_MODULES
      if (r < 0 || c < 0 || r >= inner || c >= inner) return false
      return modules.data[r * inner + c] === 1
    },
  }
}

/**
 * Draws the symbol in whole CSS pixels per module (centred in `side`), one rectangle per run of dark
 * modules in a row. Answers the module size used.
 */
export function drawQr(context: Context2D, matrix: QrMatrix, side: number): number {
  const module = Math.max(1, Math.floor(side / matrix.size))
  const offset = Math.floor((side - module * matrix.size) / 2)
  context.fillStyle = '#ffffff'
  context.fillRect(0, 0, side, side)
  context.fillStyle = '#000000'
  for (let row = 0; row < matrix.size; row += 1) {
    let start = -1
    for (let column = 0; column <= matrix.size; column += 1) {
      const dark = column < matrix.size && matrix.dark(row, column)
      if (dark && start < 0) start = column
      if (!dark && start >= 0) {
        context.fillRect(
          offset + start * module,
          offset + row * module,
          (column - start) * module,
          module,
        )
        start = -1
      }
    }
  }
  return module
}
