/*
 * Just enough of ISO BMFF (ISO/IEC 14496-12) to accept an MP4 and read its length: the file must
 * start with an `ftyp` box, and `moov` → `mvhd` holds timescale and duration (version 0: 32-bit
 * fields, version 1: 64-bit). `moov` may sit at the end (files not made "fast start"), so the
 * top-level boxes are walked by their sizes, never scanned for bytes.
 */

interface Box {
  type: string
  start: number
  end: number
  /** Where the box's content starts (after size, type and any 64-bit size). */
  body: number
}

function* boxes(bytes: Buffer, from: number, to: number): Generator<Box> {
  let at = from
  while (at + 8 <= to) {
    let size = bytes.readUInt32BE(at)
    const type = bytes.toString('latin1', at + 4, at + 8)
    let body = at + 8
    if (size === 1) {
      if (at + 16 > to) return
      size = Number(bytes.readBigUInt64BE(at + 8))
      body = at + 16
    } else if (size === 0) {
      size = to - at // to the end of the file
    }
    if (size < body - at || at + size > to) return
    yield { type, start: at, end: at + size, body }
    at += size
  }
}

/** The length in seconds of an MP4, or null when the bytes are not an MP4 with a movie header. */
export function mp4DurationSeconds(bytes: Buffer): number | null {
  if (bytes.length < 16 || bytes.toString('latin1', 4, 8) !== 'ftyp') return null
  for (const box of boxes(bytes, 0, bytes.length)) {
    if (box.type !== 'moov') continue
    for (const inner of boxes(bytes, box.body, box.end)) {
      if (inner.type !== 'mvhd') continue
      const version = bytes[inner.body]
      if (version === 1) {
        if (inner.body + 32 > inner.end) return null
        const timescale = bytes.readUInt32BE(inner.body + 20)
        const duration = Number(bytes.readBigUInt64BE(inner.body + 24))
        return timescale > 0 ? duration / timescale : null
      }
      if (inner.body + 20 > inner.end) return null
      const timescale = bytes.readUInt32BE(inner.body + 12)
      const duration = bytes.readUInt32BE(inner.body + 16)
      return timescale > 0 ? duration / timescale : null
    }
  }
  return null
}
