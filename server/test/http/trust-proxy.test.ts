import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildTestApp } from '../helpers'

/** What the server believes the client's address is, as per-address limits see it. */
async function seenAddress(trustProxy: false | number | string[]): Promise<string> {
  const app = await buildTestApp({ trustProxy })
  app.get('/test/client-ip', async (request) => ({ ip: request.ip }))
  const res = await app.inject({
    url: '/test/client-ip',
    remoteAddress: '10.0.0.5',
    headers: { 'x-forwarded-for': '203.0.113.9' },
  })
  return (res.json() as { ip: string }).ip
}

test('behind no trusted proxy a forged X-Forwarded-For is ignored', async () => {
  assert.equal(await seenAddress(false), '10.0.0.5')
})

test('behind a trusted load balancer the client address is the forwarded one', async () => {
  assert.equal(await seenAddress(1), '203.0.113.9')
  assert.equal(await seenAddress(['10.0.0.0/8']), '203.0.113.9')
  assert.equal(await seenAddress(['192.168.0.0/16']), '10.0.0.5')
})
