import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import pg from 'pg'
import { realtimeChannel } from '../../src/realtime'
import { isolatedDatabase, TEST_PG_URL } from '../helpers'
import { signUp, type TestUser } from '../domain/profile/support'
import { isEvent, type ListeningApp, listeningApp, TestSocket, until } from './support'

/**
 * PostgreSQL only: two apps on one schema, in this test process, each with its own bus and its own
 * LISTEN connection, exactly as two server processes have (nothing of the bus is module-global).
 * In one process the test can publish on either app directly and find each listener's backend to
 * terminate it; real separate processes are measured by bench/realtime.ts.
 */

const skip = TEST_PG_URL ? false : 'PostgreSQL only: runs in `npx tsx scripts/test-server.ts --pg`'

let one: ListeningApp
let two: ListeningApp
let alice: TestUser
let bob: TestUser
let schema = ''
/** App two's log lines (warn and above), for "the listener is down" being said. */
const twoLogs: string[] = []

before(async () => {
  if (skip) return
  const database = isolatedDatabase()
  schema = database.kind === 'postgres' ? database.schema! : ''
  const options = { realtimeReconnectDelaysMs: [100, 200, 400] }
  // One after the other: the first migrates the fresh schema, the second finds it ready.
  one = await listeningApp({ database }, options)
  two = await listeningApp(
    { database, logLevel: 'warn' },
    { ...options, logStream: { write: (line) => void twoLogs.push(line) } },
  )
  alice = await signUp(one.app.db, new Date())
  bob = await signUp(one.app.db, new Date())
})

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_PG_URL })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** The backends LISTENing on this schema's channel (one per app). */
const listenerPids = () =>
  admin(async (client) => {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where query = $1',
      [`LISTEN "${realtimeChannel(schema)}"`],
    )
    return rows.map((row) => row.pid)
  })

test('a publish on one app reaches a socket held by the other, both ways', { skip }, async () => {
  const onTwo = await TestSocket.signedIn(two.wsUrl, alice.token)
  const onOne = await TestSocket.signedIn(one.wsUrl, bob.token)
  const event = { kind: 'consultation.new', consultationId: 'c-7' } as const
  await one.app.realtime.publish([alice.user.id], event)
  assert.deepEqual(await onTwo.next(isEvent), { type: 'event', event })
  await two.app.realtime.publish([bob.user.id], { kind: 'messages.unread' })
  assert.deepEqual(await onOne.next(isEvent), {
    type: 'event',
    event: { kind: 'messages.unread' },
  })
  assert.equal(await onOne.hears(isEvent, 300), false)
  assert.equal(await onTwo.hears(isEvent, 0), false)
  onTwo.ws.close()
  onOne.ws.close()
})

test(
  'published inside a transaction: delivered at commit, never after a rollback',
  { skip },
  async () => {
    const socket = await TestSocket.signedIn(two.wsUrl, alice.token)
    await one.app.db
      .transaction()
      .execute(async (trx) => {
        await one.app.realtime.publish(
          [alice.user.id],
          { kind: 'consultation.changed', consultationId: 'rolled-back' },
          trx,
        )
        throw new Error('roll back')
      })
      .catch(() => undefined)
    let committed = false
    await one.app.db.transaction().execute(async (trx) => {
      await one.app.realtime.publish(
        [alice.user.id],
        { kind: 'consultation.changed', consultationId: 'committed' },
        trx,
      )
      // Not yet: NOTIFY waits for the commit.
      assert.equal(await socket.hears(isEvent, 200), false)
      committed = true
    })
    assert.ok(committed)
    const got = await socket.next(isEvent)
    assert.deepEqual(got, {
      type: 'event',
      event: { kind: 'consultation.changed', consultationId: 'committed' },
    })
    assert.equal(await socket.hears(isEvent, 300), false)
    socket.ws.close()
  },
)

test(
  'a long user list is split into payloads under 8000 bytes and still delivered',
  { skip },
  async () => {
    const socket = await TestSocket.signedIn(two.wsUrl, alice.token)
    const many = Array.from({ length: 2_000 }, (_, i) => `someone-else-${i}`)
    await one.app.realtime.publish([...many, alice.user.id], { kind: 'messages.unread' })
    await socket.next(isEvent)
    assert.equal(await socket.hears(isEvent, 300), false)
    socket.ws.close()
  },
)

test('another schema has its own channel and hears nothing of this one', { skip }, async () => {
  const other = await listeningApp({}, {})
  const stranger = await signUp(other.app.db, new Date())
  const socket = await TestSocket.signedIn(other.wsUrl, stranger.token)
  // The same user id on this schema's channel must not reach the other schema's socket.
  await one.app.realtime.publish([stranger.user.id], { kind: 'messages.unread' })
  assert.equal(await socket.hears(isEvent, 400), false)
  socket.ws.close()
})

test(
  'the LISTEN connection is terminated: the app reconnects, tells its sockets to resync, delivers again',
  { skip },
  async () => {
    const socket = await TestSocket.signedIn(two.wsUrl, alice.token)
    const before = await listenerPids()
    assert.equal(before.length, 2, `listeners: ${before.join(', ')}`)
    // Which one is app two's: terminate both and both must come back (each its own connection).
    await admin((client) =>
      client.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [before]),
    )
    await until(() => !two.app.realtime.listening(), 2_000).catch(() => undefined)
    await socket.next((m) => m.type === 'resync', 5_000)
    await until(() => one.app.realtime.listening() && two.app.realtime.listening(), 5_000)
    const said = twoLogs.map((line) => JSON.parse(line) as { level: number; msg: string })
    assert.ok(
      said.some((line) => line.level === 50 && line.msg.startsWith('realtime listener lost')),
      JSON.stringify(said),
    )
    assert.ok(said.some((line) => line.msg.startsWith('realtime listener reconnected')))
    const after = await listenerPids()
    assert.equal(after.length, 2)
    assert.ok(after.every((pid) => !before.includes(pid)))
    await one.app.realtime.publish([alice.user.id], { kind: 'messages.unread' })
    assert.deepEqual(await socket.next(isEvent), {
      type: 'event',
      event: { kind: 'messages.unread' },
    })
    socket.ws.close()
  },
)
