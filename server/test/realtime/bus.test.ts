// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { FastifyBaseLogger } from 'fastify'
import type { RealtimeEvent } from '@contract/main/realtime'
import type { DatabaseHandle } from '../../src/db'
import {
  type BusDelivery,
  createRealtimeBus,
  notifyPayloads,
  realtimeChannel,
} from '../../src/realtime'

/** The bus's pure parts and its in-process (SQLite) form, without a database. */

const quiet = () => undefined
const log = { warn: quiet, error: quiet, info: quiet, debug: quiet } as unknown as FastifyBaseLogger

test('NOTIFY payloads stay under 8000 bytes and carry every user once', () => {
  const users = Array.from({ length: 5_000 }, (_, i) => `user-${i}-${'x'.repeat(20)}`)
  const event: RealtimeEvent = { kind: 'consultation.message', consultationId: 'c1', cursor: '9' }
  const payloads = notifyPayloads(users, event)
  assert.ok(payloads.length > 1)
  const seen: string[] = []
  for (const payload of payloads) {
    assert.ok(Buffer.byteLength(payload) < 8000, `${Buffer.byteLength(payload)} bytes`)
    const parsed = JSON.parse(payload) as { u: string[]; e: RealtimeEvent }
    assert.deepEqual(parsed.e, event)
    seen.push(...parsed.u)
  }
  assert.deepEqual(seen, users)
  assert.deepEqual(notifyPayloads(['a'], { kind: 'messages.unread' }), [
    '{"u":["a"],"e":{"kind":"messages.unread"}}',
  ])
})

test('a channel per schema, a digest when the name would be too long or unusual', () => {
  assert.equal(realtimeChannel(undefined), 'yx_realtime_public')
  assert.equal(realtimeChannel('test_12_ab'), 'yx_realtime_test_12_ab')
  const long = realtimeChannel('s'.repeat(80))
  assert.ok(Buffer.byteLength(long) <= 63)
  assert.notEqual(long, realtimeChannel('t'.repeat(80)))
  assert.match(realtimeChannel('有"引号'), /^yx_realtime_[0-9a-f]{32}$/)
})

test('in process (SQLite): delivered to the named users only, until they unsubscribe', async () => {
  const bus = createRealtimeBus({ kind: 'sqlite' } as DatabaseHandle, {
    config: { kind: 'sqlite', file: ':memory:' },
    log,
  })
  await bus.whenListening()
  assert.equal(bus.listening(), true)
  const heard: [string, BusDelivery][] = []
  const stopA = bus.subscribe('a', (d) => heard.push(['a', d]))
  bus.subscribe('b', (d) => heard.push(['b', d]))
  bus.subscribe('a', () => {
    throw new Error('a broken listener does not stop the others')
  })
  await bus.publish(['a', 'a', 'c'], { kind: 'messages.unread' })
  assert.deepEqual(heard, [['a', { type: 'event', event: { kind: 'messages.unread' } }]])
  stopA()
  await bus.publish(['a', 'b'], { kind: 'consultation.new', consultationId: 'x' })
  assert.deepEqual(heard.slice(1), [
    ['b', { type: 'event', event: { kind: 'consultation.new', consultationId: 'x' } }],
  ])
  assert.equal(bus.subscriberCount(), 2)
  await bus.close()
  assert.equal(bus.subscriberCount(), 0)
})
