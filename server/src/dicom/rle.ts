/**
 * RLE Lossless (PS3.5 Annex G): a 64-byte header (segment count, then 15 little-endian offsets),
 * one PackBits segment per byte plane, most significant plane first, planes of one sample after the
 * other. No codec package covers it, and it is short enough to own.
 */
export function decodeRleFrame(
  frame: Uint8Array,
  rows: number,
  columns: number,
  samplesPerPixel: number,
  bitsAllocated: number,
): Uint8Array {
  const pixels = rows * columns
  const bytesPerSample = bitsAllocated / 8
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength)
  const segments = view.getUint32(0, true)
  const expected = samplesPerPixel * bytesPerSample
  if (segments !== expected) {
    throw new Error(`RLE: ${segments} segments, expected ${expected}`)
  }
  // Output: little-endian samples, interleaved when there are several (RGB) — the canonical layout.
  const out = new Uint8Array(pixels * expected)
  for (let segment = 0; segment < segments; segment++) {
    const start = view.getUint32(4 + segment * 4, true)
    const end = segment + 1 < segments ? view.getUint32(8 + segment * 4, true) : frame.length
    const sample = Math.floor(segment / bytesPerSample)
    // Segment 0 of a sample is its most significant byte, which goes last in little-endian order.
    const byteInSample = bytesPerSample - 1 - (segment % bytesPerSample)
    const stride = expected
    let outIndex = sample * bytesPerSample + byteInSample
    const outEnd = out.length
    let pos = start
    while (pos < end && outIndex < outEnd) {
      const header = frame[pos++]
      const n = header > 127 ? header - 256 : header
      if (n >= 0) {
        // Literal run of n + 1 bytes.
        for (let i = 0; i <= n && outIndex < outEnd; i++) {
          out[outIndex] = frame[pos++]
          outIndex += stride
        }
      } else if (n !== -128) {
        // Replicate the next byte 1 - n times; -128 is a no-op by definition.
        const value = frame[pos++]
        for (let i = 0; i < 1 - n && outIndex < outEnd; i++) {
          out[outIndex] = value
          outIndex += stride
        }
      }
    }
  }
  return out
}
