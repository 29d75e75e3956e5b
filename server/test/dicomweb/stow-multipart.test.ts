import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { test } from 'node:test'
import { ApiError } from '../../src/http/errors'
import {
  forEachRelatedPart,
  type MultipartRelatedLimits,
  parseRelatedContentType,
} from '../../src/http/multipart-related'

/*
 * The multipart/related reader on its own: parts come out byte for byte whatever the chunking (a
 * delimiter split across chunks, a body that contains boundary-like bytes), headers and the root
 * type are read, and limits stop the body early.
 */

const LIMITS: MultipartRelatedLimits = {
  maxPartBytes: 10 * 1024 * 1024,
  maxTotalBytes: 50 * 1024 * 1024,
  maxParts: 100,
}

async function* chunked(body: Buffer, sizes: () => number): AsyncIterable<Buffer> {
  for (let at = 0; at < body.length;) {
    const size = Math.max(1, sizes())
    yield body.subarray(at, at + size)
    at += size
  }
}

async function read(
  body: Buffer,
  header: string,
  sizes: () => number = () => body.length,
  limits = LIMITS,
) {
  const parts: {
    index: number
    contentType?: string
    headers: Record<string, string>
    bytes: Buffer
  }[] = []
  await forEachRelatedPart(
    chunked(body, sizes),
    parseRelatedContentType(header),
    limits,
    async (part) => {
      const chunks: Buffer[] = []
      for await (const chunk of part.body) chunks.push(chunk as Buffer)
      parts.push({
        index: part.index,
        contentType: part.contentType,
        headers: part.headers,
        bytes: Buffer.concat(chunks),
      })
    },
  )
  return parts
}

const BOUNDARY = 'e6c2fb0f-1a1b-4c9e'
const HEADER = `multipart/related; type="application/dicom"; boundary="${BOUNDARY}"`

function body(parts: Buffer[], options: { preamble?: string; epilogue?: string } = {}): Buffer {
  return Buffer.concat([
    Buffer.from(options.preamble ?? ''),
    ...parts.flatMap((bytes, i) => [
      Buffer.from(
        `${i === 0 && !options.preamble ? '' : '\r\n'}--${BOUNDARY}\r\nContent-Type: application/dicom\r\nContent-Location: part-${i}\r\n\r\n`,
      ),
      bytes,
    ]),
    Buffer.from(`\r\n--${BOUNDARY}--${options.epilogue ?? ''}`),
  ])
}

// Bodies that look like delimiters without being one: CRLF + a partial boundary, and the boundary
// without the CRLF before it.
const tricky = [
  randomBytes(70_000),
  Buffer.concat([
    Buffer.from(`x\r\n--${BOUNDARY.slice(0, 10)}y--${BOUNDARY}z\r\n-`),
    randomBytes(5),
  ]),
  Buffer.alloc(0),
  Buffer.from('\r\n\r\n'),
]

test('parts come out byte for byte, whatever the chunk sizes', async () => {
  const whole = body(tricky, { preamble: 'This is a preamble.\r\n', epilogue: '\r\nepilogue' })
  const chunkings: [string, () => number][] = [
    ['whole', () => whole.length],
    ['1 byte', () => 1],
    ['7 bytes', () => 7],
    ['random', () => 1 + Math.floor(Math.random() * 4096)],
  ]
  for (const [name, sizes] of chunkings) {
    const parts = await read(whole, HEADER, sizes)
    assert.equal(parts.length, tricky.length, name)
    parts.forEach((part, i) => {
      assert.ok(part.bytes.equals(tricky[i]!), `${name}: part ${i}`)
      assert.equal(part.contentType, 'application/dicom')
      assert.equal(part.headers['content-location'], `part-${i}`)
      assert.equal(part.index, i)
    })
  }
})

test('a part without a Content-Type takes the body type; transport padding is allowed', async () => {
  const raw = Buffer.from(
    `--${BOUNDARY}  \r\n\r\nabc\r\n--${BOUNDARY}\r\nContent-Type: Application/DICOM; x=1\r\n\r\ndef\r\n--${BOUNDARY}--`,
  )
  const parts = await read(raw, HEADER)
  assert.deepEqual(
    parts.map((part) => [part.bytes.toString(), part.contentType]),
    [
      ['abc', 'application/dicom'],
      ['def', 'application/dicom'],
    ],
  )
})

test('content types: boundary quoted or not, 415 for another type, 400 without boundary', () => {
  assert.deepEqual(
    parseRelatedContentType('Multipart/Related; boundary=abc; type=application/dicom'),
    {
      boundary: 'abc',
      type: 'application/dicom',
    },
  )
  assert.equal(parseRelatedContentType('multipart/related; boundary="a b;c"').boundary, 'a b;c')
  const status = (header: string | undefined) => {
    try {
      parseRelatedContentType(header)
      return 0
    } catch (error) {
      assert.ok(error instanceof ApiError)
      assert.match(error.userMessage, /[\u4e00-\u9fa5]/)
      return error.statusCode
    }
  }
  assert.equal(status(undefined), 415)
  assert.equal(status('application/dicom'), 415)
  assert.equal(status('multipart/related'), 400)
  assert.equal(status(`multipart/related; boundary="${'x'.repeat(71)}"`), 400)
})

test('limits stop the body while it streams', async () => {
  const big = body([randomBytes(5000)])
  await assert.rejects(
    read(big, HEADER, () => 512, { ...LIMITS, maxPartBytes: 4000 }),
    (error: ApiError) => error.statusCode === 413 && /单个实例/.test(error.userMessage),
  )
  await assert.rejects(
    read(big, HEADER, () => 512, { ...LIMITS, maxTotalBytes: 2000 }),
    (error: ApiError) => error.statusCode === 413 && /请求体超过/.test(error.userMessage),
  )
  await assert.rejects(
    read(body([Buffer.from('a'), Buffer.from('b')]), HEADER, () => 3, { ...LIMITS, maxParts: 1 }),
    (error: ApiError) => error.statusCode === 413 && /最多包含 1 个/.test(error.userMessage),
  )
  const hugeHeader = Buffer.from(
    `--${BOUNDARY}\r\nX: ${'h'.repeat(20_000)}\r\n\r\nabc\r\n--${BOUNDARY}--`,
  )
  await assert.rejects(
    read(hugeHeader, HEADER, () => 1000),
    (error: ApiError) => error.statusCode === 400 && /头部过长/.test(error.userMessage),
  )
})

test('a consumer that fails stops the reading with its error', async () => {
  const whole = body([randomBytes(600_000), Buffer.from('second')])
  let seen = 0
  await assert.rejects(
    forEachRelatedPart(
      chunked(whole, () => 16_384),
      parseRelatedContentType(HEADER),
      LIMITS,
      async (part) => {
        seen += 1
        part.body.resume()
        throw new Error('store is down')
      },
    ),
    /store is down/,
  )
  assert.equal(seen, 1)
})
