import { CODE128 } from 'jsbarcode/bin/barcodes/CODE128'

/**
 * Code 128 by jsbarcode's own encoder (automatic A/B/C set switching, check symbol), without its DOM
 * renderers: the modules are drawn on a canvas by draw-bars.ts on both platforms.
 */

/** Modules of white either side: the standard asks at least 10 for a scanner to find the start. */
export const QUIET_ZONE_MODULES = 10

/** ASCII only (what Code 128 encodes); exam and card numbers are letters, digits and a few marks. */
export function canEncode(value: string): boolean {
  return value.length > 0 && value.length <= 80 && /^[\x20-\x7E]+$/.test(value)
}

/** '1' bar / '0' space per module, quiet zones included; null when the value cannot be encoded. */
export function code128Modules(value: string): string | null {
  if (!canEncode(value)) return null
  const encoder = new CODE128(value, {})
  if (!encoder.valid()) return null
  const quiet = '0'.repeat(QUIET_ZONE_MODULES)
  return `${quiet}${encoder.encode().data}${quiet}`
}

/** Runs of bars as [start module, width in modules], so each bar is one rectangle. */
export function barsOf(modules: string): [number, number][] {
  const bars: [number, number][] = []
  let start = -1
  for (let i = 0; i <= modules.length; i += 1) {
    const on = modules[i] === '1'
    if (on && start < 0) start = i
    if (!on && start >= 0) {
      bars.push([start, i - start])
      start = -1
    }
  }
  return bars
}
