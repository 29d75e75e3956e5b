/**
 * Serving the H5 app leaves no pile of listeners on a response. A deep link (history routing) used to
 * go the long way: @fastify/static looked for the page as .br, .gz and as is, then the not-found
 * handler sent index.html, and each step awaited the reply. Every await on a Fastify reply adds two
 * 'close' listeners to the response, so each deep link reached 11 and Node printed
 * "MaxListenersExceededWarning: ... 11 close listeners added to [ServerResponse]".
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { buildTestApp } from '../helpers'

const INDEX =
  '<!doctype html><html><head><title>医影通</title></head><body><div id="app"></div></body></html>'
const BROWSER = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br',
}

describe('listeners on a response while the app is served', () => {
  let app: FastifyInstance
  let webRoot: string
  /** The most 'close' listeners any response had at once. */
  let most = 0
  const warnings: Error[] = []
  const onWarning = (warning: Error) => warnings.push(warning)

  before(async () => {
    webRoot = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-web-listeners-'))
    mkdirSync(path.join(webRoot, 'js'))
    // As the build writes them: every text file with its .br and .gz (config/h5-plugins.ts).
    const write = (file: string, text: string) => {
      writeFileSync(path.join(webRoot, file), text)
      writeFileSync(path.join(webRoot, `${file}.br`), brotliCompressSync(text))
      writeFileSync(path.join(webRoot, `${file}.gz`), gzipSync(text))
    }
    write('index.html', INDEX)
    write('js/app.1a2b3c4d.js', 'console.log("app")')
    app = await buildTestApp({ webRoot })
    app.addHook('onSend', async (_request, reply) => {
      const raw = reply.raw as ServerResponse
      const count = () => (most = Math.max(most, raw.listenerCount('close')))
      count()
      raw.once('finish', count)
    })
    process.on('warning', onWarning)
  })
  after(() => {
    process.off('warning', onWarning)
    rmSync(webRoot, { recursive: true, force: true })
  })

  test('deep links, the home, an asset and a missing asset: no MaxListenersExceededWarning', async () => {
    const requests = [
      { url: '/pages/user/user', status: 200 },
      { url: '/pages/personalImage/viewer?studyUid=1.2.3', status: 200 },
      { url: '/', status: 200 },
      { url: '/js/app.1a2b3c4d.js', status: 200 },
      { url: '/js/missing.12345678.js', status: 404 },
    ]
    for (const { url, status } of requests) {
      const res = await app.inject({ url, headers: BROWSER })
      assert.equal(res.statusCode, status, url)
      if (status === 200 && !url.startsWith('/js/'))
        assert.equal(res.headers['content-encoding'], 'br', url)
    }
    // Let a warning emitted on the last request reach the listener (process.emitWarning is deferred).
    await new Promise((resolve) => setImmediate(resolve))
    const leaks = warnings.filter((w) => w.name === 'MaxListenersExceededWarning')
    assert.deepEqual(
      leaks.map((w) => w.message),
      [],
    )
    assert.ok(most <= 6, `a response had ${most} 'close' listeners at once`)
  })
})
