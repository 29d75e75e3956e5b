import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { isApiPath } from '../../src/plugins/web'
import { buildTestApp } from '../helpers'

const INDEX =
  '<!doctype html><html><head><title>医影通</title></head><body><div id="app"></div></body></html>'
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }

describe('with a built H5 app', () => {
  let app: FastifyInstance
  let webRoot: string
  before(async () => {
    webRoot = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-web-'))
    mkdirSync(path.join(webRoot, 'js'))
    writeFileSync(path.join(webRoot, 'index.html'), INDEX)
    writeFileSync(path.join(webRoot, 'js', 'app.1a2b3c4d.js'), 'console.log("app")')
    writeFileSync(path.join(webRoot, 'favicon.ico'), 'icon')
    app = await buildTestApp({ webRoot })
  })
  after(() => rmSync(webRoot, { recursive: true, force: true }))

  test('/ serves index.html, not cached', async () => {
    const res = await app.inject({ url: '/', headers: HTML })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /text\/html/)
    assert.equal(res.body, INDEX)
    assert.equal(res.headers['cache-control'], 'no-cache')
  })

  test('a deep link returns the app (history routing)', async () => {
    for (const url of [
      '/pages/user/user',
      '/pages/personalReport/index?id=3',
      '/pages/main/main',
    ]) {
      const res = await app.inject({ url, headers: HTML })
      assert.equal(res.statusCode, 200, url)
      assert.equal(res.body, INDEX, url)
      assert.equal(res.headers['cache-control'], 'no-cache', url)
    }
  })

  test('hashed assets are served with a long cache, others revalidate', async () => {
    const js = await app.inject('/js/app.1a2b3c4d.js')
    assert.equal(js.statusCode, 200)
    assert.match(String(js.headers['content-type']), /javascript/)
    assert.equal(js.body, 'console.log("app")')
    assert.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable')
    const icon = await app.inject('/favicon.ico')
    assert.equal(icon.statusCode, 200)
    assert.equal(icon.headers['cache-control'], 'no-cache')
  })

  test('a missing asset is a 404, never the app', async () => {
    const res = await app.inject({ url: '/js/missing.12345678.js', headers: HTML })
    assert.equal(res.statusCode, 404)
    assert.equal(res.json().code, 404)
  })

  test('API paths never fall back to the app', async () => {
    for (const url of [
      '/main/x',
      '/consult/nothing',
      '/image',
      '/update/check-me',
      '/knowledge/a',
    ]) {
      const res = await app.inject({ url, headers: HTML })
      assert.equal(res.statusCode, 404, url)
      assert.match(String(res.headers['content-type']), /application\/json/, url)
      assert.equal(res.json().error, '接口不存在，请检查地址', url)
    }
    const health = await app.inject({ url: '/health', headers: HTML })
    assert.equal(health.json().code, 200)
  })

  test('a non-HTML request for an unknown path gets the JSON 404', async () => {
    const res = await app.inject({
      url: '/pages/user/user',
      headers: { accept: 'application/json' },
    })
    assert.equal(res.statusCode, 404)
    assert.equal(res.json().code, 404)
  })
})

describe('compressed files made at build time', () => {
  let app: FastifyInstance
  let webRoot: string
  const script = `console.log(${JSON.stringify('医影通'.repeat(400))})`
  before(async () => {
    webRoot = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-web-'))
    mkdirSync(path.join(webRoot, 'js'))
    mkdirSync(path.join(webRoot, 'css'))
    const files: Record<string, string> = { 'index.html': INDEX, 'js/app.1a2b3c4d.js': script }
    for (const [name, body] of Object.entries(files)) {
      writeFileSync(path.join(webRoot, name), body)
      writeFileSync(path.join(webRoot, `${name}.br`), brotliCompressSync(body))
      writeFileSync(path.join(webRoot, `${name}.gz`), gzipSync(body))
    }
    // The build leaves out a variant that saves nothing: such a file goes out as it is.
    writeFileSync(path.join(webRoot, 'css', 'tiny.1a2b3c4d.css'), 'a{}')
    writeFileSync(path.join(webRoot, '.build-meta.json'), '{}')
    app = await buildTestApp({ webRoot })
  })
  after(() => rmSync(webRoot, { recursive: true, force: true }))

  test('brotli when the browser takes it, with Vary and the long cache', async () => {
    const res = await app.inject({
      url: '/js/app.1a2b3c4d.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-encoding'], 'br')
    assert.match(String(res.headers['content-type']), /javascript/)
    assert.match(String(res.headers.vary), /accept-encoding/i)
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable')
    // The file made at build time, byte for byte: not compressed a second time.
    assert.equal(brotliDecompressSync(res.rawPayload).toString(), script)
    assert.equal(Number(res.headers['content-length']), res.rawPayload.length)
  })

  test('gzip for a browser without brotli, the plain file for one without either', async () => {
    const gz = await app.inject({
      url: '/js/app.1a2b3c4d.js',
      headers: { 'accept-encoding': 'gzip' },
    })
    assert.equal(gz.headers['content-encoding'], 'gzip')
    assert.equal(gunzipSync(gz.rawPayload).toString(), script)
    const plain = await app.inject({
      url: '/js/app.1a2b3c4d.js',
      headers: { 'accept-encoding': 'identity' },
    })
    assert.equal(plain.headers['content-encoding'], undefined)
    assert.equal(plain.body, script)
    assert.match(String(plain.headers.vary), /accept-encoding/i)
  })

  test('index.html compressed too, at / and on a deep link, and never cached', async () => {
    for (const url of ['/', '/pages/user/user']) {
      const res = await app.inject({ url, headers: { ...HTML, 'accept-encoding': 'br' } })
      assert.equal(res.statusCode, 200, url)
      assert.equal(res.headers['content-encoding'], 'br', url)
      assert.match(String(res.headers['content-type']), /text\/html/, url)
      assert.equal(res.headers['cache-control'], 'no-cache', url)
      assert.equal(brotliDecompressSync(res.rawPayload).toString(), INDEX, url)
    }
  })

  test('a file without a compressed variant is sent as it is, not compressed per request', async () => {
    const res = await app.inject({
      url: '/css/tiny.1a2b3c4d.css',
      headers: { 'accept-encoding': 'br, gzip' },
    })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-encoding'], undefined)
    assert.equal(res.body, 'a{}')
  })

  test('dot files of the build (its stamp and meta data) are not served', async () => {
    const res = await app.inject({ url: '/.build-meta.json', headers: { 'accept-encoding': 'br' } })
    assert.equal(res.statusCode, 404)
  })
})

describe('JSON answers', () => {
  let app: FastifyInstance
  before(async () => {
    app = await buildTestApp()
  })

  test('a large answer is compressed by Accept-Encoding, brotli first', async () => {
    const res = await app.inject({
      url: '/openapi.json',
      headers: { 'accept-encoding': 'gzip, br' },
    })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-encoding'], 'br')
    assert.match(String(res.headers.vary), /accept-encoding/i)
    const document = JSON.parse(brotliDecompressSync(res.rawPayload).toString())
    assert.equal(document.openapi, '3.0.3')
    const gz = await app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'gzip' } })
    assert.equal(gz.headers['content-encoding'], 'gzip')
    assert.equal(JSON.parse(gunzipSync(gz.rawPayload).toString()).openapi, '3.0.3')
  })

  test('a small answer (under 1 KB) and a client without compression get plain JSON', async () => {
    const small = await app.inject({ url: '/health', headers: { 'accept-encoding': 'br, gzip' } })
    assert.equal(small.headers['content-encoding'], undefined)
    assert.equal(small.json().code, 200)
    const plain = await app.inject({ url: '/openapi.json' })
    assert.equal(plain.headers['content-encoding'], undefined)
    assert.equal(plain.json().openapi, '3.0.3')
  })
})

describe('without a built H5 app', () => {
  let app: FastifyInstance
  before(async () => {
    app = await buildTestApp({ webRoot: path.join(os.tmpdir(), 'yingxiang-missing-web-root') })
  })

  test('/ says in Chinese that the app is not built', async () => {
    const res = await app.inject({ url: '/', headers: HTML })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /text\/html/)
    assert.match(res.body, /尚未构建/)
    assert.match(res.body, /npm run build:h5/)
  })

  test('a deep link gets the same note, an API path the JSON 404', async () => {
    const deep = await app.inject({ url: '/pages/user/user', headers: HTML })
    assert.equal(deep.statusCode, 404)
    assert.match(deep.body, /尚未构建/)
    const api = await app.inject({ url: '/main/x', headers: HTML })
    assert.equal(api.json().code, 404)
  })
})

test('isApiPath knows every service prefix and nothing else', () => {
  for (const url of [
    '/sso/oauth2/token',
    '/main',
    '/consult/a',
    '/image/b',
    '/scan/c',
    '/report-model/d',
    '/case/e',
    '/update/f',
    '/knowledge/g',
    '/health',
    '/openapi.json',
    '/api-docs/static/x.css',
    '/main/app/version?softwareName=x',
    '/dicomweb/studies/1.2.3/nothing-here',
    '/fhir/Patient',
  ]) {
    assert.equal(isApiPath(url), true, url)
  }
  for (const url of [
    '/',
    '/pages/main/main',
    '/images/x.png',
    '/mainly',
    '/static/a.png',
    '/js/a.js',
    '/dicomwebx',
  ]) {
    assert.equal(isApiPath(url), false, url)
  }
})
