import assert from 'node:assert/strict'
import { test } from 'node:test'
import zlib from 'node:zlib'
import Fastify from 'fastify'
import { registerCompression, rememberingCompressors } from '../../src/plugins/compression'

test('the same bytes are compressed once; other bytes get their own output', () => {
  const { brotliCompressSync, gzipSync } = rememberingCompressors()
  const list = Buffer.from(
    JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => `检查 ${i}`) }),
  )
  const first = brotliCompressSync(list)
  assert.equal(brotliCompressSync(Buffer.from(list)), first)
  assert.equal(zlib.brotliDecompressSync(first).toString(), list.toString())
  // Per encoding: gzip of the same bytes is gzip.
  assert.equal(zlib.gunzipSync(gzipSync(list)).toString(), list.toString())
  const changed = Buffer.from(list.toString().replace('检查 1999', '检查 2000'))
  assert.notEqual(brotliCompressSync(changed), first)
  assert.equal(
    zlib.brotliDecompressSync(brotliCompressSync(changed)).toString(),
    changed.toString(),
  )
})

test('a 30 KB JSON answer goes out brotli-compressed, the same each time, and decodes to itself', async () => {
  const app = Fastify()
  await registerCompression(app)
  const body = { data: Array.from({ length: 600 }, (_, i) => ({ id: i, title: `检查 ${i}` })) }
  app.get('/list', async () => body)
  const ask = () => app.inject({ url: '/list', headers: { 'accept-encoding': 'br, gzip' } })
  const [one, two] = [await ask(), await ask()]
  assert.equal(one.headers['content-encoding'], 'br')
  assert.ok(one.rawPayload.length < JSON.stringify(body).length / 3)
  assert.deepEqual(one.rawPayload, two.rawPayload)
  assert.deepEqual(JSON.parse(zlib.brotliDecompressSync(one.rawPayload).toString()), body)
  await app.close()
})
