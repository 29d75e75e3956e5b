import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod/mini'
import { defineEndpoint } from '@contract/endpoint'
import { BODY_LIMIT } from '../src/app'
import { forbidden, tooManyRequests } from '../src/http/errors'
import { route } from '../src/http/route'
import { buildTestApp } from './helpers'

const echo = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/test/echo',
  input: z.object({ name: z.string().check(z.maxLength(8)) }),
  output: z.object({ name: z.string() }),
  auth: false,
  summary: 'echo',
})

const privateThing = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/test/private',
  input: z.object({}),
  output: z.object({}),
  auth: true,
  summary: 'private',
})

const drifting = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/test/drift',
  input: z.object({}),
  output: z.object({ count: z.number() }),
  auth: false,
  summary: 'drift',
})

async function appWithTestRoutes(): Promise<FastifyInstance> {
  const app = await buildTestApp()
  route(app, echo, async ({ name }) => ({ name }))
  route(app, privateThing, async () => ({}))
  // Returns something the contract does not allow: must fail as a 500, not reach the client.
  route(app, drifting, async () => ({ count: 'many' }) as unknown as { count: number })
  app.get('/main/test/boom', async () => {
    throw new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2')
  })
  app.get('/main/test/forbidden', async () => {
    throw forbidden()
  })
  app.get('/main/test/limited', async () => {
    throw tooManyRequests()
  })
  return app
}

let app: FastifyInstance
before(async () => {
  app = await appWithTestRoutes()
})

function assertEnvelope(body: unknown): asserts body is Record<string, unknown> {
  assert.ok(body && typeof body === 'object')
  assert.deepEqual(Object.keys(body).sort(), ['code', 'data', 'error', 'message', 'reason'])
}

test('a success is the 200 envelope with error null', async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/main/test/echo',
    payload: { name: '张三' },
  })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), {
    code: 200,
    message: 'ok',
    data: { name: '张三' },
    error: null,
    reason: null,
  })
})

test('a body field failing validation answers 400 with a Chinese error', async () => {
  const missing = await app.inject({ method: 'POST', url: '/main/test/echo', payload: {} })
  assert.equal(missing.statusCode, 400)
  assert.deepEqual(missing.json(), {
    code: 400,
    message: '请求参数有误',
    data: null,
    error: '缺少参数 name',
    reason: null,
  })
  const long = await app.inject({
    method: 'POST',
    url: '/main/test/echo',
    payload: { name: 'x'.repeat(20) },
  })
  assert.equal(long.json().error, '参数 name 过长或过大')
})

test('a POST without a body is validated as an empty object', async () => {
  const res = await app.inject({ method: 'POST', url: '/main/test/echo' })
  assert.equal(res.statusCode, 400)
  assert.equal(res.json().error, '缺少参数 name')
})

test('invalid JSON answers 400 in Chinese', async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/main/test/echo',
    headers: { 'content-type': 'application/json' },
    payload: '{"name":',
  })
  assert.equal(res.statusCode, 400)
  assertEnvelope(res.json())
  assert.equal(res.json().error, '请求内容不是有效的 JSON')
})

test('a body over the limit answers 413 in Chinese', async () => {
  const res = await app.inject({
    method: 'POST',
    url: '/main/test/echo',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'x'.repeat(BODY_LIMIT) }),
  })
  assert.equal(res.statusCode, 413)
  assert.equal(res.json().code, 413)
  assert.match(res.json().error, /过大/)
})

test('an endpoint needing a token answers 401 without one and with an unknown one', async () => {
  const none = await app.inject('/main/test/private')
  assert.equal(none.statusCode, 401)
  assert.deepEqual(none.json(), {
    code: 401,
    message: '请重新登录！',
    data: null,
    error: '请先登录',
    reason: null,
  })
  const unknown = await app.inject({
    url: '/main/test/private',
    headers: { authorization: 'Bearer not-a-real-token' },
  })
  assert.equal(unknown.statusCode, 401)
  assert.equal(unknown.json().error, '登录已失效，请重新登录')
})

test('403 and 429 use the envelope', async () => {
  const denied = await app.inject('/main/test/forbidden')
  assert.equal(denied.statusCode, 403)
  assert.deepEqual(denied.json(), {
    code: 403,
    message: '无权访问',
    data: null,
    error: '您无权访问该内容',
    reason: null,
  })
  const limited = await app.inject('/main/test/limited')
  assert.equal(limited.statusCode, 429)
  assert.equal(limited.json().code, 429)
  assert.match(limited.json().error, /频繁/)
})

test('an unknown API path answers the 404 envelope in Chinese', async () => {
  for (const url of ['/main/nothing-here', '/sso/x', '/report-model/a/b', '/health/deep']) {
    const res = await app.inject({ url, headers: { accept: 'text/html' } })
    assert.equal(res.statusCode, 404, url)
    assert.match(String(res.headers['content-type']), /application\/json/)
    assert.deepEqual(res.json(), {
      code: 404,
      message: '请求的资源不存在',
      data: null,
      error: '接口不存在，请检查地址',
      reason: null,
    })
  }
  const post = await app.inject({ method: 'POST', url: '/main/app/version' })
  assert.equal(post.statusCode, 404)
  assert.equal(post.json().code, 404)
})

test('an unexpected error answers 500 without internals', async () => {
  const res = await app.inject('/main/test/boom')
  assert.equal(res.statusCode, 500)
  assert.deepEqual(res.json(), {
    code: 500,
    message: '服务器繁忙，请稍后再试',
    data: null,
    error: null,
    reason: null,
  })
  assert.doesNotMatch(res.body, /ECONNREFUSED|hunter2|stack|at /)
})

test('a handler answer that breaks the contract is a 500, not a leak', async () => {
  const res = await app.inject('/main/test/drift')
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().message, '服务器繁忙，请稍后再试')
  assert.doesNotMatch(res.body, /many|count|expected/)
})

test('every answer carries a request id and basic security headers', async () => {
  const res = await app.inject('/health')
  assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/)
  assert.equal(res.headers['x-content-type-options'], 'nosniff')
  const traced = await app.inject({ url: '/health', headers: { 'x-request-id': 'lb-1234' } })
  assert.equal(traced.headers['x-request-id'], 'lb-1234')
  const hostile = await app.inject({ url: '/health', headers: { 'x-request-id': 'a\tb {"x":1}' } })
  assert.notEqual(hostile.headers['x-request-id'], 'a\tb {"x":1}')
})

test('/openapi.json lists the contract routes with their schemas', async () => {
  const res = await app.inject('/openapi.json')
  assert.equal(res.statusCode, 200)
  const doc = res.json()
  assert.match(doc.openapi, /^3\./)
  assert.ok(doc.paths['/health'].get)
  assert.ok(doc.paths['/main/app/version'].get)
  const agreement = doc.paths['/main/app/agreements/{kind}'].get
  assert.ok(agreement)
  const params = agreement.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)
  assert.deepEqual(params.sort(), ['path:kind', 'query:softwareName'])
  const version = doc.paths['/main/app/version'].get
  assert.deepEqual(
    version.parameters.map((p: { name: string }) => p.name),
    ['softwareName'],
  )
  const ok = version.responses['200'].content['application/json'].schema
  assert.deepEqual(Object.keys(ok.properties).sort(), [
    'code',
    'data',
    'error',
    'message',
    'reason',
  ])
  assert.ok(ok.properties.data.properties.version)
  assert.equal(doc.paths['/openapi.json'], undefined)
  assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/api-docs')))
})

test('/api-docs is a readable page served without outside hosts', async () => {
  const page = await app.inject('/api-docs')
  assert.equal(page.statusCode, 200)
  assert.match(String(page.headers['content-type']), /text\/html/)
  const init = await app.inject('/api-docs/static/swagger-initializer.js')
  assert.equal(init.statusCode, 200)
  assert.match(init.body, /validatorUrl: null/)
  for (const body of [page.body, init.body]) {
    const hosts = [
      ...body.matchAll(/(?:src|href)=["']https?:\/\/[^"']+/g),
      ...body.matchAll(/url: ["']https?:\/\/[^"']+/g),
    ].map((match) => match[0])
    assert.deepEqual(hosts, [])
  }
  const css = await app.inject('/api-docs/static/swagger-ui.css')
  assert.equal(css.statusCode, 200)
})
