import { randomBytes } from 'node:crypto'
import {
  BROKEN_DATA,
  boundaryOf,
  framePixels,
  parseInstanceMetadata,
  parseMultipart,
  ViewerError,
} from '../index'
import { syntheticJson } from './support'

/**
 * A frames answer built byte for byte the way server/src/routes/dicomweb/wado.ts streams one:
 * `--boundary CRLF headers CRLF CRLF body CRLF` per part, then `--boundary-- CRLF`.
 */
function wadoAnswer(
  parts: Uint8Array[],
  options: { contentLength?: boolean; preamble?: string } = {},
) {
  const boundary = `yingxiang-${randomBytes(16).toString('hex')}`
  const chunks: Buffer[] = []
  if (options.preamble) chunks.push(Buffer.from(`${options.preamble}\r\n`))
  for (const part of parts) {
    const headers = ['Content-Type: application/octet-stream; transfer-syntax=1.2.840.10008.1.2.1']
    if (options.contentLength !== false) headers.push(`Content-Length: ${part.byteLength}`)
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`))
    chunks.push(Buffer.from(part))
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  const body = Buffer.concat(chunks)
  return {
    body: body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer,
    contentType: `multipart/related; type="application/octet-stream"; boundary=${boundary}`,
    boundary,
  }
}

const bytesOf = (b: ArrayBuffer) => Array.from(new Uint8Array(b))

describe('parseMultipart', () => {
  it('gives back each frame of a WADO-RS answer, byte for byte', () => {
    const frames = [new Uint8Array(randomBytes(512 * 2)), new Uint8Array(randomBytes(512 * 2))]
    const answer = wadoAnswer(frames)
    const parts = parseMultipart(answer.body, answer.contentType)
    expect(parts.map(bytesOf)).toEqual(frames.map((f) => Array.from(f)))
  })

  it('parts are fresh buffers, aligned for 16-bit views', () => {
    const info = parseInstanceMetadata(
      syntheticJson({ rows: 2, columns: 3, pixelRepresentation: 1 }),
    )
    const pixels = new Int16Array([-1024, 0, 40, 3071, -1, 7])
    const answer = wadoAnswer([new Uint8Array(pixels.buffer)])
    const [part] = parseMultipart(answer.body, answer.contentType)
    expect(Array.from(framePixels(info, part!))).toEqual(Array.from(pixels))
  })

  it('trusts Content-Length, so a frame that happens to contain the delimiter stays whole', () => {
    const boundaryHolder = wadoAnswer([new Uint8Array(1)])
    const tricky = Buffer.from(`ab\r\n--${boundaryHolder.boundary}\r\nnot a part\r\n\r\nxyz`)
    const answer = wadoAnswer([new Uint8Array(tricky)])
    const body = Buffer.from(answer.body)
      .toString('latin1')
      .replaceAll(answer.boundary, boundaryHolder.boundary)
    const bytes = Buffer.from(body, 'latin1')
    const parts = parseMultipart(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      boundaryHolder.contentType,
    )
    expect(parts.map(bytesOf)).toEqual([Array.from(tricky)])
  })

  it('finds parts without Content-Length by their delimiter, after a preamble', () => {
    const frames = [new Uint8Array([1, 2, 3]), new Uint8Array(0), new Uint8Array([13, 10, 45])]
    const answer = wadoAnswer(frames, { contentLength: false, preamble: 'ignore me' })
    expect(parseMultipart(answer.body, answer.contentType).map(bytesOf)).toEqual([
      [1, 2, 3],
      [],
      [13, 10, 45],
    ])
  })

  it('reads a quoted boundary and any parameter order', () => {
    expect(boundaryOf('multipart/related; boundary="a b:c"; type="application/octet-stream"')).toBe(
      'a b:c',
    )
    expect(boundaryOf('multipart/related;type=application/octet-stream;BOUNDARY=xyz')).toBe('xyz')
    expect(boundaryOf('multipart/related; type="x"')).toBeNull()
  })

  it('takes a bare single-part answer as the frame itself', () => {
    const body = new Uint8Array([9, 8, 7]).buffer
    expect(parseMultipart(body, 'application/octet-stream')).toEqual([body])
  })

  it('refuses a cut-off or boundary-less answer with a Chinese message', () => {
    const answer = wadoAnswer([new Uint8Array(100)])
    expect(() =>
      parseMultipart(answer.body, 'multipart/related; type="application/octet-stream"'),
    ).toThrow(new ViewerError(BROKEN_DATA))
    const cut = answer.body.slice(0, 120)
    expect(() => parseMultipart(cut, answer.contentType)).toThrow(ViewerError)
    expect(() => parseMultipart(new ArrayBuffer(10), answer.contentType)).toThrow(ViewerError)
  })
})
