import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { test } from 'node:test'
import { HTTP_TIMEOUTS } from '../../src/app'
import { buildTestApp } from '../helpers'

test('the HTTP timeouts are the ones app.ts names', async () => {
  const app = await buildTestApp()
  await app.listen({ host: '127.0.0.1', port: 0 })
  assert.equal(app.server.headersTimeout, HTTP_TIMEOUTS.headersMs)
  assert.equal(app.server.requestTimeout, HTTP_TIMEOUTS.requestMs)
  assert.equal(app.server.keepAliveTimeout, HTTP_TIMEOUTS.keepAliveMs)
  assert.equal(app.server.timeout, HTTP_TIMEOUTS.connectionMs)
})

test('a client sending its headers a line a second is cut off by the headers timeout', async () => {
  const app = await buildTestApp()
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const socket = connect(port, '127.0.0.1')
  const started = Date.now()
  socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n')
  // Never the blank line that ends the headers: a header a second, as a slowloris client does.
  const drip = setInterval(() => socket.write(`X-Slow-${Date.now()}: 1\r\n`), 1000)
  const answer: Buffer[] = []
  socket.on('data', (chunk: Buffer) => answer.push(chunk))
  socket.on('error', () => undefined)
  const limit = HTTP_TIMEOUTS.headersMs + 2 * HTTP_TIMEOUTS.checkIntervalMs + 3000
  const closed = await new Promise<boolean>((resolve) => {
    const giveUp = setTimeout(() => resolve(false), limit)
    socket.once('close', () => {
      clearTimeout(giveUp)
      resolve(true)
    })
  })
  clearInterval(drip)
  socket.destroy()
  const after = Date.now() - started
  assert.ok(closed, `still open after ${after} ms`)
  assert.ok(after >= HTTP_TIMEOUTS.headersMs - 1000, `closed after only ${after} ms`)
  assert.match(Buffer.concat(answer).toString(), /^HTTP\/1\.1 408|^$/)
})
