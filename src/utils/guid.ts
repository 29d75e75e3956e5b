const CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

interface RandomSource {
  getRandomValues(array: Uint32Array): Uint32Array
}

function randomSource(): RandomSource | undefined {
  // The weapp runtime has no `crypto`; H5 and Node do.
  const candidate: unknown = (globalThis as { crypto?: unknown }).crypto
  if (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof (candidate as Partial<RandomSource>).getRandomValues === 'function'
  ) {
    return candidate as RandomSource
  }
  return undefined
}

/** Uniform random integers in [0, n), n <= 62, `count` of them. */
function randomIndexes(count: number, n: number): number[] {
  const source = randomSource()
  if (source === undefined) {
    return Array.from({ length: count }, () => Math.floor(Math.random() * n))
  }
  // Rejection sampling: 2^32 is not a multiple of n, so values from the incomplete last block
  // would favour small indexes.
  const limit = Math.floor(0x100000000 / n) * n
  const out: number[] = []
  const buffer = new Uint32Array(Math.max(count, 16))
  while (out.length < count) {
    source.getRandomValues(buffer)
    for (let i = 0; i < buffer.length && out.length < count; i += 1) {
      if (buffer[i] < limit) out.push(buffer[i] % n)
    }
  }
  return out
}

/**
 * Random id, as uview's `guid` (SPEC section 9: default length 32).
 *
 * - `len` characters drawn from the first `radix` characters of 0-9A-Za-z (radix 2 to 62,
 *   default 62); `len = 0` gives an RFC 4122 version-4 UUID layout (36 characters) instead.
 * - `firstU` (default true) replaces the first character with `u`, so the id can start a DOM id
 *   or CSS selector, which may not begin with a digit; the length stays the same.
 *
 * Uses crypto.getRandomValues where it exists and Math.random otherwise (weapp). Not for secrets:
 * on weapp it is not cryptographically strong.
 */
export function guid(len = 32, firstU = true, radix: number | null = null): string {
  if (!Number.isInteger(len) || len < 0) throw new RangeError(`guid: bad length ${len}`)
  const base = radix ?? CHARS.length
  if (!Number.isInteger(base) || base < 2 || base > CHARS.length) {
    throw new RangeError(`guid: radix must be 2 to ${CHARS.length}, got ${base}`)
  }
  let chars: string[]
  if (len > 0) {
    chars = randomIndexes(len, base).map((i) => CHARS[i])
  } else {
    const nibbles = randomIndexes(32, 16)
    chars = []
    let next = 0
    for (let i = 0; i < 36; i += 1) {
      if (i === 8 || i === 13 || i === 18 || i === 23) chars.push('-')
      else if (i === 14) chars.push('4')
      // The variant nibble is 10xx in binary: 8, 9, a or b.
      else if (i === 19) chars.push(((nibbles[next++] & 0x3) | 0x8).toString(16))
      else chars.push(nibbles[next++].toString(16))
    }
  }
  if (firstU) chars[0] = 'u'
  return chars.join('')
}
