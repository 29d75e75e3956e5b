import { BROKEN_DATA, ViewerError } from './errors'

/*
 * WADO-RS frames come as multipart/related (PS3.18 8.7.3.3.2), one part per frame. Our server
 * gives each part a Content-Length (wado.ts), so the body is cut without scanning the pixels for
 * the boundary; a part without one (another server) is found by searching for the delimiter.
 */

const encoder = (text: string): Uint8Array => {
  // Boundaries and headers are ASCII (RFC 2046 5.1.1), so a charCode loop is enough; the
  // mini-program's TextEncoder is not there on every base library.
  const out = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff
  return out
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!
  const last = haystack.length - needle.length
  outer: for (let i = from; i <= last; i++) {
    if (haystack[i] !== first) continue
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}

function startsWith(haystack: Uint8Array, needle: Uint8Array, at: number): boolean {
  if (at < 0 || at + needle.length > haystack.length) return false
  for (let j = 0; j < needle.length; j++) if (haystack[at + j] !== needle[j]) return false
  return true
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  let s = ''
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!)
  return s
}

/** The boundary parameter of a multipart Content-Type, quoted or not. */
export function boundaryOf(contentType: string): string | null {
  const m = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  return m ? (m[1] ?? m[2] ?? null) : null
}

/** The parts of a WADO-RS frames answer (multipart/related), as raw bytes each. */
export function parseMultipart(body: ArrayBuffer, contentType: string): ArrayBuffer[] {
  // A single-part answer (a server that sends the frame bare) is that part.
  if (!/^\s*multipart\//i.test(contentType)) return [body]
  const boundary = boundaryOf(contentType)
  if (!boundary) throw new ViewerError(BROKEN_DATA)
  const bytes = new Uint8Array(body)
  const dash = encoder(`--${boundary}`)
  const delimiter = encoder(`\r\n--${boundary}`)
  const headerEnd = encoder('\r\n\r\n')
  const parts: ArrayBuffer[] = []
  // The first delimiter may stand at the very start (no preceding CRLF) or after a preamble.
  let at = 0
  if (!startsWith(bytes, dash, 0)) {
    const found = indexOf(bytes, delimiter, 0)
    if (found < 0) throw new ViewerError(BROKEN_DATA)
    at = found + 2
  }
  for (;;) {
    at += dash.length
    // "--" after a delimiter closes the body.
    if (bytes[at] === 0x2d && bytes[at + 1] === 0x2d) break
    const headersEnd = indexOf(bytes, headerEnd, at)
    if (headersEnd < 0) throw new ViewerError(BROKEN_DATA)
    const headers = ascii(bytes, at, headersEnd)
    const start = headersEnd + 4
    const length = /(?:^|\r\n)content-length\s*:\s*(\d+)/i.exec(headers)
    let end = length ? start + Number(length[1]) : -1
    if (end < 0 || !startsWith(bytes, delimiter, end)) end = indexOf(bytes, delimiter, start)
    if (end < 0) throw new ViewerError(BROKEN_DATA)
    parts.push(body.slice(start, end))
    at = end + 2
  }
  if (parts.length === 0) throw new ViewerError(BROKEN_DATA)
  return parts
}
