import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app'
import { API_CSP } from '../../src/plugins/security'
import { closeAfter, testConfig } from '../helpers'

// Issue 6 retest, points 2 and 3: client errors that reached the error handler as faults (500 with a
// stack logged) or skipped it (Fastify's English JSON without our headers).

let app: FastifyInstance
let webRoot: string
const logs: string[] = []

before(async () => {
  webRoot = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-errors-'))
  mkdirSync(path.join(webRoot, 'js'))
  writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>医影通</title>')
  writeFileSync(path.join(webRoot, 'js', 'app.1a2b3c4d.js'), 'console.log("app")')
  app = await buildApp(testConfig({ webRoot, logLevel: 'info' }), {
    logStream: { write: (line) => void logs.push(line) },
  })
  // A plugin's client error without a Fastify code (the shape http-errors gives them).
  app.get('/main/test/range', async () => {
    throw Object.assign(new Error('Range Not Satisfiable'), { status: 416, statusCode: 416 })
  })
  closeAfter(() => app.close())
})
after(() => rmSync(webRoot, { recursive: true, force: true }))

/** Log lines at error level (50) or above written since `from`. */
function errorLogsSince(from: number): string[] {
  return logs.slice(from).filter((line) => (JSON.parse(line) as { level: number }).level >= 50)
}

function assertSecurityHeaders(headers: Record<string, unknown>, label: string): void {
  assert.equal(headers['content-security-policy'], API_CSP, label)
  assert.equal(headers['x-content-type-options'], 'nosniff', label)
  assert.equal(headers['x-frame-options'], 'DENY', label)
}

test('encoded path traversal against the web app is a 404 页面不存在, not a 500 with a stack', async () => {
  const from = logs.length
  for (const url of ['/..%2f..%2fetc/passwd', '/%2e%2e/x', '/js/..%2f..%2fpackage.json']) {
    const res = await app.inject({ url })
    assert.equal(res.statusCode, 404, url)
    assert.equal(res.json().code, 404, url)
    assert.match(res.json().error, /不存在/, url)
    assert.doesNotMatch(res.body, /Forbidden|stack|passwd|package/, url)
    const head = await app.inject({ method: 'HEAD', url })
    assert.equal(head.statusCode, 404, `HEAD ${url}`)
  }
  const viaStatic = await app.inject('/js/..%2f..%2fpackage.json')
  assert.equal(viaStatic.json().error, '页面不存在')
  assert.deepEqual(errorLogsSince(from), [])
})

test('a client error without a Fastify code keeps its 4xx status and gets Chinese text', async () => {
  const from = logs.length
  const res = await app.inject('/main/test/range')
  assert.equal(res.statusCode, 416)
  assert.deepEqual(res.json(), {
    code: 416,
    message: '请求失败',
    data: null,
    error: '请求的内容范围无效',
    reason: null,
  })
  assert.deepEqual(errorLogsSince(from), [])
})

test('a URL that does not decode answers the envelope in Chinese, with the security headers', async () => {
  const from = logs.length
  for (const url of ['/%E0%A4%A', '/main/%E0%A4%A']) {
    const res = await app.inject({ url })
    assert.equal(res.statusCode, 400, url)
    assert.deepEqual(res.json(), {
      code: 400,
      message: '请求参数有误',
      data: null,
      error: '请求地址有误，请检查后重试',
      reason: null,
    })
    assert.doesNotMatch(res.body, /E0|valid url/, url)
    assertSecurityHeaders(res.headers, url)
    assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/)
  }
  assert.deepEqual(errorLogsSince(from), [])
})

test('a form body is refused saying only JSON is accepted', async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/sso/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'grant_type=password&username=13800138000&password=x',
  })
  assert.equal(res.statusCode, 415)
  assert.equal(res.json().error, '不支持的内容类型，请以 JSON 格式提交')
})

/** Sends raw bytes to the listening server and reads the whole answer (it closes the connection). */
async function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request))
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      answer += chunk
    })
    socket.on('close', () => resolve(answer))
    socket.on('error', (error) => (answer ? resolve(answer) : reject(error)))
  })
}

test('requests Node cannot parse get the envelope in Chinese with the security headers', async () => {
  const listening = await buildApp(testConfig())
  closeAfter(() => listening.close())
  await listening.listen({ port: 0, host: '127.0.0.1' })
  const { port } = listening.server.address() as net.AddressInfo

  // A 100 KB multipart boundary: over Node's 16 KB header limit.
  const boundary = 'b'.repeat(100 * 1024)
  const huge = await rawRequest(
    port,
    `POST /main/upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 0\r\n\r\n`,
  )
  const malformed = await rawRequest(port, 'GARBAGE\r\n\r\n')
  for (const [answer, status, text] of [
    [huge, 431, '请求头过大'],
    [malformed, 400, '请求有误，请检查后重试'],
  ] as const) {
    const [head = '', body = ''] = answer.split('\r\n\r\n')
    assert.match(head, new RegExp(`^HTTP/1.1 ${status} `))
    const headers = Object.fromEntries(
      head
        .split('\r\n')
        .slice(1)
        .map((line) => {
          const at = line.indexOf(':')
          return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()]
        }),
    )
    assertSecurityHeaders(headers, String(status))
    assert.match(String(headers['content-type']), /application\/json/)
    assert.deepEqual(JSON.parse(body), {
      code: status,
      message: status === 400 ? '请求参数有误' : '请求失败',
      data: null,
      error: text,
      reason: null,
    })
  }
})
