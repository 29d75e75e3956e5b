import assert from 'node:assert/strict'
import { test } from 'node:test'
import { addHospital, issueHospitalKey, revokeHospitalKey } from '../../../src/domain/hospitals'
import {
  HOSPITAL_KEY_INVALID,
  HOSPITAL_KEY_MISSING,
  HOSPITAL_KEY_REVOKED,
  hospitalAuth,
} from '../../../src/routes/hospital-auth'
import { buildTestApp } from '../../helpers'

async function appWithGuardedRoute() {
  const app = await buildTestApp()
  app.get('/test/hospital-only', { preHandler: hospitalAuth() }, async (request) => ({
    hospital: request.hospital,
  }))
  const hospital = await addHospital(app.db, { name: '甲医院' }, app.now())
  const issued = await issueHospitalKey(app.db, hospital.id, app.now())
  return { app, hospital, issued }
}

test('a valid Bearer key puts its hospital on the request', async () => {
  const { app, hospital, issued } = await appWithGuardedRoute()
  const response = await app.inject({
    method: 'GET',
    url: '/test/hospital-only',
    headers: { authorization: `Bearer ${issued.key}` },
  })
  assert.equal(response.statusCode, 200)
  assert.deepEqual(response.json().hospital, {
    id: hospital.id,
    name: '甲医院',
    demo: false,
    keyId: issued.id,
    keyPrefix: issued.prefix,
  })
})

test('missing, malformed, wrong and revoked keys answer 401 in Chinese with WWW-Authenticate', async () => {
  const { app, issued } = await appWithGuardedRoute()
  const wrong = issued.key.slice(0, -2) + (issued.key.endsWith('AA') ? 'BB' : 'AA')
  const cases: [Record<string, string>, string][] = [
    [{}, HOSPITAL_KEY_MISSING],
    [{ authorization: issued.key }, HOSPITAL_KEY_MISSING],
    [{ authorization: `Basic ${issued.key}` }, HOSPITAL_KEY_MISSING],
    [{ authorization: `Bearer ${wrong}` }, HOSPITAL_KEY_INVALID],
    [{ authorization: 'Bearer not-a-key-at-all' }, HOSPITAL_KEY_INVALID],
  ]
  for (const [headers, message] of cases) {
    const response = await app.inject({ method: 'GET', url: '/test/hospital-only', headers })
    assert.equal(response.statusCode, 401, JSON.stringify(headers))
    assert.equal(response.json().error, message)
    assert.equal(response.json().code, 401)
    assert.equal(response.headers['www-authenticate'], 'Bearer realm="hospital"')
  }
  await revokeHospitalKey(app.db, issued.prefix, app.now())
  const revoked = await app.inject({
    method: 'GET',
    url: '/test/hospital-only',
    headers: { authorization: `Bearer ${issued.key}` },
  })
  assert.equal(revoked.statusCode, 401)
  assert.equal(revoked.json().error, HOSPITAL_KEY_REVOKED)
})

test('a bearer token of another kind (shaped like an access token) is not a hospital key', async () => {
  const { app } = await appWithGuardedRoute()
  const response = await app.inject({
    method: 'GET',
    url: '/test/hospital-only',
    headers: { authorization: `Bearer ${'A'.repeat(43)}` },
  })
  assert.equal(response.statusCode, 401)
  assert.equal(response.json().error, HOSPITAL_KEY_INVALID)
})
