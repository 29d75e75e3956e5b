import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
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
  ]) {
    assert.equal(isApiPath(url), false, url)
  }
})
