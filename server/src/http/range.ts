import type { ByteRange } from '../storage/object-store'

/**
 * The Range header of a GET (RFC 9110 §14.1.2), as the object store takes it. One range only: a
 * player asks for one span at a time, and a header this does not understand (several ranges, other
 * units, bad syntax) is ignored, which HTTP allows: the whole file is sent with 200.
 */
export function parseRangeHeader(header: string | undefined): ByteRange | undefined {
  if (!header) return undefined
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match) return undefined
  const [, from, to] = match
  if (from === '' && to === '') return undefined
  if (from === '') return { suffix: Number(to) }
  return to === '' ? { start: Number(from) } : { start: Number(from), end: Number(to) }
}
