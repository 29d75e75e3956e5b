import {
  functionOf,
  lutEntry,
  voiEdges,
  voiLinear,
  voiLinearExact,
  voiLutOf,
  voiSigmoid,
} from './lut'
import type { ImageInfo, PixelData, WindowLevel } from './types'

/*
 * Stored value → RGBA through one lookup table per (window, invert): the modality LUT (sequence
 * or rescale), the VOI (LUT sequence, or the window under LINEAR, LINEAR_EXACT or SIGMOID) and
 * the MONOCHROME1 inversion are folded into it (lut.ts), so the per-pixel work is one table read
 * and one 32-bit write, with no allocation.
 */

/** Packed RGBA words are written through a Uint32Array view; their byte order is the platform's. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

function pack(r: number, g: number, b: number): number {
  return LITTLE_ENDIAN
    ? ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0
    : ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0
}

export { voiLinear } from './lut'

/** Renders RGBA into `out` (length rows*columns*4); LUT cached per (window, invert). */
export interface Renderer {
  render(pixels: PixelData, window: WindowLevel, invert: boolean, out: Uint8ClampedArray): void
}

/** How many tables a renderer keeps: a drag makes a new one per move, a preset goes back. */
const LUTS_KEPT = 4

function storedRange(info: ImageInfo): { min: number; size: number } {
  // Colour reaches the renderer as 8-bit RGB whatever it was stored as (framePixels).
  const colour = info.samplesPerPixel === 3
  const bits = colour ? 8 : info.bitsStored
  const size = 2 ** bits
  return { min: info.pixelRepresentation === 1 && !colour ? -(size / 2) : 0, size }
}

export function createRenderer(info: ImageInfo): Renderer {
  const { min, size } = storedRange(info)
  const colour = info.samplesPerPixel === 3
  const palette = info.photometric === 'PALETTE COLOR' ? (info.palette ?? null) : null
  const inverted = info.photometric === 'MONOCHROME1'
  const slope = info.rescaleSlope
  const intercept = info.rescaleIntercept
  const modalityLut = info.modalityLut ?? null
  const count = info.rows * info.columns

  // Most recently used last; an evicted table's memory is reused for the next one, so dragging
  // the window does not churn 256 KB per move through the garbage collector.
  const luts: { key: string; table: Uint32Array }[] = []
  let lastOut: Uint8ClampedArray | null = null
  let lastWords: Uint32Array | null = null

  function tableFor(window: WindowLevel, invert: boolean): Uint32Array {
    const key = palette
      ? `p|${invert}`
      : `${window.center}|${window.width}|${window.fn ?? ''}|${window.voiLut ?? ''}|${invert}`
    for (let i = luts.length - 1; i >= 0; i--) {
      const entry = luts[i]!
      if (entry.key !== key) continue
      // Move to the most recent end without allocating (at most LUTS_KEPT entries).
      for (let j = i; j < luts.length - 1; j++) luts[j] = luts[j + 1]!
      luts[luts.length - 1] = entry
      return entry.table
    }
    const table = luts.length >= LUTS_KEPT ? luts.shift()!.table : new Uint32Array(size)
    fill(table, window, invert)
    luts.push({ key, table })
    return table
  }

  function fill(table: Uint32Array, window: WindowLevel, invert: boolean) {
    if (palette) {
      // PS3.3 C.7.6.3.1.5: below the first mapped value the first entry, above the table the last.
      const last = palette.red.length - 1
      for (let i = 0; i < size; i++) {
        let at = min + i - palette.firstMapped
        at = at < 0 ? 0 : at > last ? last : at
        const r = palette.red[at]!
        const g = palette.green[at]!
        const b = palette.blue[at]!
        table[i] = invert ? pack(255 - r, 255 - g, 255 - b) : pack(r, g, b)
      }
      return
    }
    const flip = inverted !== invert
    // Resolved once per table, not per entry: a drag builds a table per move (lut.ts's
    // modalityValue/voiValue say the same one value at a time).
    const voiLut = voiLutOf(info, window)
    const fn = functionOf(info, window)
    const { center, width } = window
    const voi = (x: number) =>
      voiLut
        ? (lutEntry(voiLut, x) / voiLut.max) * 255
        : fn === 'LINEAR'
          ? voiLinear(x, center, width)
          : fn === 'SIGMOID'
            ? voiSigmoid(x, center, width)
            : voiLinearExact(x, center, width)
    const entry = (i: number) => {
      // Colour samples are windowed as they are (no modality LUT for colour, PS3.3 C.7.6.3).
      const x = colour
        ? i
        : modalityLut
          ? lutEntry(modalityLut, min + i)
          : (min + i) * slope + intercept
      let y = Math.round(voi(x))
      if (flip) y = 255 - y
      // Colour tables hold one channel's byte; grey tables a whole pixel.
      return colour ? y : pack(y, y, y)
    }
    // With rescale the modality value is monotonic in the stored one, so outside the VOI's flat
    // edges (in stored units, a margin of 2 for rounding) the table is flat: filled natively, and
    // only the window's own span is computed (a 65 536-entry table at W 400 computes ~400
    // entries). A modality or VOI LUT may be any shape: every entry is computed.
    let lo = 0
    let hi = size - 1
    const edges = colour || modalityLut ? null : voiEdges(info, window)
    if (edges) {
      const edge = (x: number) => (x - intercept) / slope - min
      const a = edge(edges[0])
      const b = edge(edges[1])
      if (Number.isFinite(a) && Number.isFinite(b)) {
        lo = Math.max(0, Math.floor(Math.min(a, b)) - 2)
        hi = Math.min(size - 1, Math.ceil(Math.max(a, b)) + 2)
        if (lo > hi) lo = hi = lo > size - 1 ? size - 1 : 0
      }
    }
    if (lo > 0) table.fill(entry(0), 0, lo)
    for (let i = lo; i <= hi; i++) table[i] = entry(i)
    if (hi < size - 1) table.fill(entry(size - 1), hi + 1, size)
  }

  function wordsOf(out: Uint8ClampedArray): Uint32Array | null {
    if (out === lastOut) return lastWords
    lastOut = out
    lastWords = out.byteOffset % 4 === 0 ? new Uint32Array(out.buffer, out.byteOffset, count) : null
    return lastWords
  }

  return {
    render(pixels, window, invert, out) {
      if (out.length < count * 4)
        throw new Error(`render: out holds ${out.length} bytes, needs ${count * 4}`)
      const table = tableFor(window, invert)
      const words = wordsOf(out)
      if (colour) {
        for (let i = 0, k = 0, j = 0; i < count; i++, k += 3, j += 4) {
          out[j] = table[pixels[k]!]!
          out[j + 1] = table[pixels[k + 1]!]!
          out[j + 2] = table[pixels[k + 2]!]!
          out[j + 3] = 255
        }
        return
      }
      const offset = -min
      if (words) {
        if (offset === 0) for (let i = 0; i < count; i++) words[i] = table[pixels[i]!]!
        else for (let i = 0; i < count; i++) words[i] = table[pixels[i]! + offset]!
        return
      }
      // An unaligned `out` (a subarray): byte by byte, same table.
      for (let i = 0, j = 0; i < count; i++, j += 4) {
        const word = table[pixels[i]! + offset]!
        if (LITTLE_ENDIAN) {
          out[j] = word & 255
          out[j + 1] = (word >>> 8) & 255
          out[j + 2] = (word >>> 16) & 255
          out[j + 3] = word >>> 24
        } else {
          out[j] = word >>> 24
          out[j + 1] = (word >>> 16) & 255
          out[j + 2] = (word >>> 8) & 255
          out[j + 3] = word & 255
        }
      }
    },
  }
}

/**
 * What a renderer's output depends on besides the pixels and the window: instances that agree on
 * it render identically, so one renderer (and its lookup tables) serves them all. A palette image
 * keeps its own (its tables come with the instance).
 */
export function rendererKey(info: ImageInfo): string {
  const palette = info.photometric === 'PALETTE COLOR' ? info.sopInstanceUid : ''
  return [
    info.modalityLut?.key ?? '',
    (info.voiLuts ?? []).map((lut) => lut.key).join(','),
    info.voiFunction ?? '',
    info.rows,
    info.columns,
    info.photometric,
    info.bitsStored,
    info.pixelRepresentation,
    info.rescaleSlope,
    info.rescaleIntercept,
    palette,
  ].join('|')
}

/** How many distinct renderers a pool keeps (a series has one, a mixed one a few). */
const RENDERERS_KEPT = 8

/**
 * Renderers shared by the instances that render alike, at most RENDERERS_KEPT (least recently used
 * dropped): one per instance would keep a 256 KB table for every slice ever shown of a 16-bit
 * stack (128 MB over a 500-slice CT, outside the frame cache's bound) and build a new table on
 * every slice change.
 */
export class RendererPool {
  private readonly renderers = new Map<string, Renderer>()

  get size(): number {
    return this.renderers.size
  }

  get(info: ImageInfo): Renderer {
    const key = rendererKey(info)
    let renderer = this.renderers.get(key)
    if (renderer) this.renderers.delete(key)
    else renderer = createRenderer(info)
    this.renderers.set(key, renderer)
    if (this.renderers.size > RENDERERS_KEPT) {
      this.renderers.delete(this.renderers.keys().next().value as string)
    }
    return renderer
  }
}
