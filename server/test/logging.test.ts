import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildApp } from '../src/app'
import { closeAfter, testConfig } from './helpers'

test('logs are JSON lines without credentials, query strings or error details', async () => {
  const lines: string[] = []
  const app = await buildApp(testConfig({ logLevel: 'info' }), {
    logStream: { write: (line) => void lines.push(line) },
  })
  closeAfter(() => app.close())
  app.get('/main/test/fails', async () => {
    // Like a PostgreSQL unique violation, whose `detail` quotes the row's values.
    throw Object.assign(new Error('duplicate key value violates unique constraint'), {
      detail: 'Key (phone)=(13800138000) already exists.',
    })
  })

  const res = await app.inject({
    url: '/main/test/fails?phone=13800138000',
    headers: { authorization: 'Bearer secret-token-value', cookie: 'sid=secret-cookie' },
  })
  assert.equal(res.statusCode, 500)

  const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
  const failed = records.find((record) => record.msg === 'request failed')
  assert.ok(failed, 'the fault is logged')
  assert.equal(typeof failed.reqId, 'string')
  assert.match(JSON.stringify(failed.err), /duplicate key value/)
  const all = lines.join('')
  for (const secret of ['13800138000', 'secret-token-value', 'secret-cookie']) {
    assert.ok(!all.includes(secret), `log must not contain ${secret}`)
  }
  const incoming = records.find((record) => record.msg === 'incoming request')
  assert.deepEqual(incoming?.req, { method: 'GET', url: '/main/test/fails' })
})
