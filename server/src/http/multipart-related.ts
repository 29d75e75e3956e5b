import { PassThrough, type Readable } from 'node:stream'
import { ApiError } from './errors'

/*
 * multipart/related (RFC 2387), the body of a STOW-RS request (PS3.18 §10.5): parts separated by
 * `--boundary` lines, each with its own headers (Content-Type: application/dicom). Parsed as it
 * streams in: a part's bytes go to the consumer (the object store's staging) as they arrive, so a
 * 2 GB study never sits in memory. Limits stop a body early; every refusal is a Chinese ApiError.
 */

export interface MultipartRelatedLimits {
  /** Bytes of one part's body. */
  maxPartBytes: number
  /** Bytes of the whole request body. */
  maxTotalBytes: number
  maxParts: number
  /** Bytes of one part's header block. */
  maxHeaderBytes?: number
}

export interface RelatedContentType {
  boundary: string
  /** The `type` parameter: the root part's media type (application/dicom for STOW-RS). */
  type?: string
}

export interface RelatedPart {
  /** 0-based position in the body. */
  index: number
  /** Header names lower-cased. */
  headers: Record<string, string>
  /** The part's Content-Type (media type only, lower-cased), or the body's `type` parameter. */
  contentType: string | undefined
  /** Consume it whole (or throw) before the next part is read. */
  body: Readable
}

export const MULTIPART_MESSAGES = {
  notMultipart:
    '请求体须为 multipart/related 格式（Content-Type: multipart/related; type="application/dicom"; boundary=…）',
  noBoundary: '请求体格式错误：Content-Type 缺少 boundary 参数',
  badBoundary: '请求体格式错误：boundary 参数无效（1–70 个字符）',
  noStart: '请求体格式错误：找不到第一个分隔符（--boundary）',
  badDelimiter: '请求体格式错误：分隔符后缺少换行',
  headersTooLarge: '请求体格式错误：某个部分的头部过长',
  badHeader: '请求体格式错误：某个部分的头部无法解析',
  truncated: '请求体不完整：缺少结束分隔符（--boundary--），请检查网络后重新发送',
  empty: '请求体中没有任何部分',
  tooManyParts: (max: number) => `一次请求最多包含 ${max} 个实例，请分批发送`,
  partTooLarge: (max: number) => `单个实例超过大小上限（${formatBytes(max)}）`,
  totalTooLarge: (max: number) => `请求体超过大小上限（${formatBytes(max)}），请分批发送`,
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(1)} GB`
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(1)} MB`
  return `${Math.ceil(bytes / 1024)} KB`
}

/** Media type without parameters, lower-cased: `Application/DICOM; x=1` → `application/dicom`. */
export function mediaType(value: string | undefined): string | undefined {
  const type = value?.split(';')[0]?.trim().toLowerCase()
  return type || undefined
}

/** Parameters of a Content-Type value (names lower-cased, quotes removed). */
export function mediaTypeParameters(value: string): Record<string, string> {
  const params: Record<string, string> = {}
  // name=value or name="quoted \" value"; separated by `;`.
  const pattern = /;\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^;\s]*)/g
  for (const match of value.matchAll(pattern)) {
    const name = match[1]!.toLowerCase()
    params[name] = match[3] !== undefined ? match[3].replace(/\\(.)/g, '$1') : match[2]!
  }
  return params
}

/** Reads `multipart/related; type=…; boundary=…`; a 415 or 400 in Chinese when it is not one. */
export function parseRelatedContentType(header: string | undefined): RelatedContentType {
  if (mediaType(header) !== 'multipart/related') {
    throw new ApiError(415, MULTIPART_MESSAGES.notMultipart)
  }
  const params = mediaTypeParameters(header!)
  const boundary = params.boundary
  if (boundary === undefined) throw new ApiError(400, MULTIPART_MESSAGES.noBoundary)
  // RFC 2046 §5.1.1: 1 to 70 characters, not ending in a space.
  if (boundary.length < 1 || boundary.length > 70 || boundary.endsWith(' ')) {
    throw new ApiError(400, MULTIPART_MESSAGES.badBoundary)
  }
  return { boundary, type: mediaType(params.type) }
}

const CRLF = Buffer.from('\r\n')
const HEADER_END = Buffer.from('\r\n\r\n')
const DEFAULT_MAX_HEADER_BYTES = 16 * 1024

/**
 * Feeds each part to `onPart` in order, each body streamed with backpressure, and answers how many
 * parts there were. Throws ApiError 400 (malformed, truncated, empty) or 413 (a limit), or whatever
 * `onPart` throws; the caller removes what `onPart` stored.
 */
export async function forEachRelatedPart(
  source: AsyncIterable<Buffer | string>,
  contentType: RelatedContentType,
  limits: MultipartRelatedLimits,
  onPart: (part: RelatedPart) => Promise<void>,
): Promise<number> {
  const maxHeaderBytes = limits.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES
  const dashBoundary = Buffer.from(`--${contentType.boundary}`, 'latin1')
  // Every delimiter after the first is preceded by CRLF (which belongs to the delimiter).
  const delimiter = Buffer.concat([CRLF, dashBoundary])

  type State = 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done'
  // Changed inside advance(): typed wide so the checks after each call are not narrowed away.
  let state = 'preamble' as State
  let pending: Buffer = Buffer.alloc(0)
  let total = 0
  let parts = 0
  let current: { body: PassThrough; bytes: number; consumed: Promise<void> } | undefined

  const refuse = (status: number, message: string) => new ApiError(status, message)

  /** Writes to the current part, waiting while its consumer is behind. */
  const emit = async (bytes: Buffer) => {
    if (!current || bytes.length === 0) return
    current.bytes += bytes.length
    if (current.bytes > limits.maxPartBytes) {
      throw refuse(413, MULTIPART_MESSAGES.partTooLarge(limits.maxPartBytes))
    }
    if (!current.body.write(bytes)) {
      const part = current
      await Promise.race([
        new Promise<void>((resolve) => part.body.once('drain', resolve)),
        // A consumer that failed stops reading: its error ends the wait.
        part.consumed.then(() => undefined),
      ])
    }
  }

  const endPart = async () => {
    if (!current) return
    const part = current
    current = undefined
    part.body.end()
    await part.consumed
  }

  const startPart = (headerBlock: Buffer) => {
    parts += 1
    if (parts > limits.maxParts) throw refuse(413, MULTIPART_MESSAGES.tooManyParts(limits.maxParts))
    const headers = parseHeaders(headerBlock)
    const body = new PassThrough({ highWaterMark: 256 * 1024 })
    // A refused body destroys the part with its error, perhaps before the consumer has started
    // reading it: the consumer still sees the error, and it never becomes an uncaught 'error' event.
    body.on('error', () => undefined)
    const part: RelatedPart = {
      index: parts - 1,
      headers,
      contentType: mediaType(headers['content-type']) ?? contentType.type,
      body,
    }
    const consumed = onPart(part)
    // Until endPart awaits it, a rejection must not count as unhandled.
    consumed.catch(() => undefined)
    current = { body, bytes: 0, consumed }
  }

  try {
    for await (const chunk of source) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk
      total += bytes.length
      if (total > limits.maxTotalBytes) {
        throw refuse(413, MULTIPART_MESSAGES.totalTooLarge(limits.maxTotalBytes))
      }
      pending = pending.length ? Buffer.concat([pending, bytes]) : bytes
      await advance(false)
      if (state === 'done') pending = Buffer.alloc(0) // the epilogue is ignored
    }
    await advance(true)
    if (state !== 'done') throw refuse(400, MULTIPART_MESSAGES.truncated)
    if (parts === 0) throw refuse(400, MULTIPART_MESSAGES.empty)
    return parts
  } catch (error) {
    if (current) {
      const part = current
      current = undefined
      part.body.destroy(error instanceof Error ? error : new Error(String(error)))
      await part.consumed.catch(() => undefined)
    }
    throw error
  }

  /** Consumes as much of `pending` as the state machine can; `ended` when no more input comes. */
  async function advance(ended: boolean): Promise<void> {
    for (;;) {
      if (state === 'preamble') {
        // The first delimiter may start the body (no CRLF before it) or follow a preamble line.
        const at = pending.indexOf(dashBoundary)
        if (at < 0) {
          if (ended) throw refuse(400, MULTIPART_MESSAGES.noStart)
          // Keep only what could be the start of the delimiter; the preamble is discarded.
          pending = pending.subarray(Math.max(0, pending.length - dashBoundary.length + 1))
          return
        }
        if (at > 0 && !(at >= 2 && pending[at - 2] === 0x0d && pending[at - 1] === 0x0a)) {
          // `--boundary` inside preamble text, not at a line start: skip past it.
          pending = pending.subarray(at + 1)
          continue
        }
        pending = pending.subarray(at + dashBoundary.length)
        state = 'after-delimiter'
        continue
      }
      if (state === 'after-delimiter') {
        // `--` closes the body; otherwise optional transport padding, then CRLF, then headers.
        if (pending.length < 2) {
          if (ended) throw refuse(400, MULTIPART_MESSAGES.truncated)
          return
        }
        if (pending[0] === 0x2d && pending[1] === 0x2d) {
          await endPart()
          state = 'done'
          return
        }
        const lineEnd = pending.indexOf(CRLF)
        if (lineEnd < 0) {
          if (pending.length > 1024 || ended) throw refuse(400, MULTIPART_MESSAGES.badDelimiter)
          return
        }
        if (pending.subarray(0, lineEnd).some((byte) => byte !== 0x20 && byte !== 0x09)) {
          throw refuse(400, MULTIPART_MESSAGES.badDelimiter)
        }
        await endPart()
        pending = pending.subarray(lineEnd + 2)
        state = 'headers'
        continue
      }
      if (state === 'headers') {
        // A part without headers starts with the blank line at once.
        if (pending.length >= 2 && pending[0] === 0x0d && pending[1] === 0x0a) {
          startPart(Buffer.alloc(0))
          pending = pending.subarray(2)
          state = 'body'
          continue
        }
        const end = pending.indexOf(HEADER_END)
        if (end < 0) {
          if (pending.length > maxHeaderBytes) throw refuse(400, MULTIPART_MESSAGES.headersTooLarge)
          if (ended) throw refuse(400, MULTIPART_MESSAGES.truncated)
          return
        }
        if (end > maxHeaderBytes) throw refuse(400, MULTIPART_MESSAGES.headersTooLarge)
        startPart(pending.subarray(0, end))
        pending = pending.subarray(end + HEADER_END.length)
        state = 'body'
        continue
      }
      if (state === 'body') {
        const at = pending.indexOf(delimiter)
        if (at < 0) {
          if (ended) throw refuse(400, MULTIPART_MESSAGES.truncated)
          // Everything but a possible beginning of the delimiter belongs to the part.
          const keep = Math.min(pending.length, delimiter.length - 1)
          const out = pending.subarray(0, pending.length - keep)
          pending = Buffer.from(pending.subarray(pending.length - keep))
          await emit(out)
          return
        }
        await emit(pending.subarray(0, at))
        pending = pending.subarray(at + delimiter.length)
        state = 'after-delimiter'
        continue
      }
      return
    }
  }
}

function parseHeaders(block: Buffer): Record<string, string> {
  const headers: Record<string, string> = {}
  if (block.length === 0) return headers
  let last: string | undefined
  for (const line of block.toString('latin1').split('\r\n')) {
    if (/^[ \t]/.test(line) && last) {
      // Folded continuation line (obsolete, still sent by some toolkits).
      headers[last] += ` ${line.trim()}`
      continue
    }
    const colon = line.indexOf(':')
    if (colon <= 0) throw new ApiError(400, MULTIPART_MESSAGES.badHeader)
    last = line.slice(0, colon).trim().toLowerCase()
    headers[last] = line.slice(colon + 1).trim()
  }
  return headers
}
