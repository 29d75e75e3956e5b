import type { DataSet } from './parse'

/** PALETTE COLOR lookup (PS3.3 C.7.6.3.1.5), reduced to 8-bit entries for the canonical RGB output. */
export interface Palette {
  firstMapped: number
  red: Uint8Array
  green: Uint8Array
  blue: Uint8Array
}

function channel(
  dataSet: DataSet,
  descriptorTag: string,
  dataTag: string,
): { firstMapped: number; values: Uint8Array } {
  const entriesRaw = dataSet.uint16(descriptorTag, 0)
  const firstMapped = dataSet.uint16(descriptorTag, 1) ?? 0
  const bits = dataSet.uint16(descriptorTag, 2) ?? 16
  const data = dataSet.elements[dataTag]
  if (entriesRaw === undefined || !data) throw new Error('palette colour without a lookup table')
  // 0 entries means 65 536 (the count does not fit in 16 bits).
  const entries = entriesRaw === 0 ? 65536 : entriesRaw
  const bytes = dataSet.byteArray.subarray(data.dataOffset, data.dataOffset + data.length)
  const values = new Uint8Array(entries)
  if (bits === 8 && bytes.length === entries) {
    values.set(bytes)
  } else {
    // OW words: keep the most significant 8 of the entry's bits.
    const shift = bits > 8 ? bits - 8 : 0
    for (let i = 0; i < entries && i * 2 + 1 < bytes.length; i++) {
      const word = bytes[i * 2] | (bytes[i * 2 + 1] << 8)
      values[i] = (word >> shift) & 0xff
    }
  }
  return { firstMapped, values }
}

export function readPalette(dataSet: DataSet): Palette {
  const red = channel(dataSet, 'x00281101', 'x00281201')
  const green = channel(dataSet, 'x00281102', 'x00281202')
  const blue = channel(dataSet, 'x00281103', 'x00281203')
  return { firstMapped: red.firstMapped, red: red.values, green: green.values, blue: blue.values }
}

/** Indices below the first mapped value take the first entry, above the table the last (C.7.6.3.1.5). */
export function expandPalette(indices: Uint8Array | Uint16Array, palette: Palette): Uint8Array {
  const out = new Uint8Array(indices.length * 3)
  const last = palette.red.length - 1
  for (let i = 0; i < indices.length; i++) {
    const at = Math.min(last, Math.max(0, indices[i] - palette.firstMapped))
    out[i * 3] = palette.red[at]
    out[i * 3 + 1] = palette.green[at]
    out[i * 3 + 2] = palette.blue[at]
  }
  return out
}
