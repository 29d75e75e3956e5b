import assert from 'node:assert/strict'
import { test } from 'node:test'
import { HealthSchema } from '@contract/system/health'
import { buildTestApp, TEST_DB_KIND } from '../../helpers'

test('GET /health reports status, database kind and version', async () => {
  const app = await buildTestApp()
  const res = await app.inject('/health')
  assert.equal(res.statusCode, 200)
  const body = res.json()
  assert.equal(body.code, 200)
  assert.equal(body.error, null)
  const health = HealthSchema.parse(body.data)
  assert.equal(health.status, 'ok')
  assert.equal(health.database, TEST_DB_KIND)
  assert.equal(health.version, app.config.version)
})

test('GET /health answers 503 in the envelope when the database is gone', async () => {
  const app = await buildTestApp()
  await app.ready()
  await app.database.destroy()
  const res = await app.inject('/health')
  assert.equal(res.statusCode, 503)
  assert.deepEqual(res.json(), {
    code: 503,
    message: '数据库不可用',
    data: null,
    error: null,
    reason: null,
  })
})
