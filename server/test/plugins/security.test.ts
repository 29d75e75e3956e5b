import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { API_CSP, HSTS, inlineScriptHashes, pageCsp } from '../../src/plugins/security'
import { buildTestApp } from '../helpers'

// Taro's index.html sets the rem size in an inline script; the page policy must hash exactly that.
const REM_SCRIPT = '!function(n){n.document.documentElement.style.fontSize="20px"}(window);'
const INDEX = `<!doctype html><html><head><title>医影通</title><script>${REM_SCRIPT}</script><script defer="defer" src="/js/app.1a2b3c4d.js"></script></head><body><div id="app"></div></body></html>`
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

/** One directive's sources, e.g. directive(csp, 'script-src') → ["'self'", "'sha256-…'"]. */
function directive(csp: string, name: string): string[] | undefined {
  const found = csp
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([key]) => key === name)
  return found?.slice(1)
}

function assertCommonHeaders(headers: Record<string, unknown>, label: string): void {
  assert.equal(headers['x-content-type-options'], 'nosniff', label)
  assert.equal(headers['x-frame-options'], 'DENY', label)
  assert.equal(headers['referrer-policy'], 'strict-origin-when-cross-origin', label)
  assert.deepEqual(directive(String(headers['content-security-policy']), 'frame-ancestors'), [
    "'none'",
  ])
}

describe('the H5 app pages', () => {
  let app: FastifyInstance
  let webRoot: string
  before(async () => {
    webRoot = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-csp-'))
    writeFileSync(path.join(webRoot, 'index.html'), INDEX)
    writeFileSync(
      path.join(webRoot, '.build-meta.json'),
      JSON.stringify({
        connectSrc: ['https://api.example.com', "https://evil.example.com 'unsafe-eval'"],
        firstScreen: [],
      }),
    )
    app = await buildTestApp({ webRoot })
  })
  after(() => rmSync(webRoot, { recursive: true, force: true }))

  test('/ and a deep link carry the page policy with the inline script hashed', async () => {
    for (const url of ['/', '/pages/user/user', '/index.html']) {
      const res = await app.inject({ url, headers: HTML })
      assert.equal(res.statusCode, 200, url)
      assertCommonHeaders(res.headers, url)
      const csp = String(res.headers['content-security-policy'])
      // Taro's tab bar links are href="javascript:;": that exact no-op, and no other inline code.
      assert.deepEqual(
        directive(csp, 'script-src'),
        ["'self'", sha256(REM_SCRIPT), "'unsafe-hashes'", sha256('javascript:;')],
        url,
      )
      assert.equal(csp.includes("'unsafe-eval'"), false, url)
      assert.deepEqual(directive(csp, 'object-src'), ["'none'"], url)
      // The build's API origin is allowed; a value that would smuggle a keyword in is dropped.
      // blob: lets the upload read the picked file's slices (Taro's H5 uploadFile fetches them).
      assert.deepEqual(
        directive(csp, 'connect-src'),
        ["'self'", 'blob:', 'https://api.example.com'],
        url,
      )
    }
  })

  test('a script file and an API answer get the strict API policy', async () => {
    for (const url of ['/health', '/main/x']) {
      const res = await app.inject({ url })
      assertCommonHeaders(res.headers, url)
      assert.equal(res.headers['content-security-policy'], API_CSP, url)
    }
  })
})

describe('HSTS', () => {
  test('not over plain HTTP, and a forged X-Forwarded-Proto is ignored without TRUST_PROXY', async () => {
    const app = await buildTestApp()
    const plain = await app.inject({ url: '/health' })
    assert.equal(plain.headers['strict-transport-security'], undefined)
    const forged = await app.inject({ url: '/health', headers: { 'x-forwarded-proto': 'https' } })
    assert.equal(forged.headers['strict-transport-security'], undefined)
  })

  test('over HTTPS as a trusted proxy reports it', async () => {
    const app = await buildTestApp({ trustProxy: 1 })
    const res = await app.inject({
      url: '/health',
      remoteAddress: '10.0.0.5',
      headers: { 'x-forwarded-proto': 'https' },
    })
    assert.equal(res.headers['strict-transport-security'], HSTS)
    const http = await app.inject({
      url: '/health',
      remoteAddress: '10.0.0.5',
      headers: { 'x-forwarded-proto': 'http' },
    })
    assert.equal(http.headers['strict-transport-security'], undefined)
  })
})

test('the API docs page keeps its own policy, but may not be framed either', async () => {
  const app = await buildTestApp()
  const res = await app.inject({ url: '/api-docs', headers: HTML })
  assert.equal(res.statusCode, 200)
  assertCommonHeaders(res.headers, '/api-docs')
  const csp = String(res.headers['content-security-policy'])
  assert.notEqual(csp, API_CSP)
  assert.equal(csp.includes('validator.swagger.io'), false)
  // Swagger UI sets style attributes at run time; its own hashes alone would refuse them.
  assert.deepEqual(directive(csp, 'style-src'), ["'self'", "'unsafe-inline'"])
})

test('the not-built note allows its inline styles and nothing else', async () => {
  const app = await buildTestApp()
  const res = await app.inject({ url: '/', headers: HTML })
  assertCommonHeaders(res.headers, '/')
  const csp = String(res.headers['content-security-policy'])
  assert.deepEqual(directive(csp, 'default-src'), ["'none'"])
  assert.deepEqual(directive(csp, 'style-src'), ["'unsafe-inline'"])
})

test('inline script hashes skip scripts with a src and hash the exact text', () => {
  assert.deepEqual(inlineScriptHashes(INDEX), [sha256(REM_SCRIPT)])
  assert.deepEqual(inlineScriptHashes('<script src="/a.js"></script>'), [])
  assert.deepEqual(directive(pageCsp('<p>no scripts</p>'), 'script-src'), [
    "'self'",
    "'unsafe-hashes'",
    sha256('javascript:;'),
  ])
})
