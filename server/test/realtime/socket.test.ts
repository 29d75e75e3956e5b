import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { REALTIME_CLOSE_CODES, REALTIME_MAX_CLIENT_MESSAGE_BYTES } from '@contract/main/realtime'
import { revokeSession } from '../../src/domain/identity'
import { signUp, type TestUser } from '../domain/profile/support'
import { isEvent, type ListeningApp, listeningApp, TestSocket, until } from './support'

/**
 * The socket at /main/ws on one app (both databases): sign-in by the first message, delivery to the
 * right account only, the per-account limit, and the session check. Timers are shortened (auth 400 ms,
 * session check 300 ms) except in the one test of the real 5 s auth wait.
 */

let fast: ListeningApp
let alice: TestUser
let bob: TestUser

before(async () => {
  fast = await listeningApp(
    {},
    { realtimeSocket: { authTimeoutMs: 400, sessionCheckMs: 300, heartbeatMs: 1_000 } },
  )
  alice = await signUp(fast.app.db, new Date())
  bob = await signUp(fast.app.db, new Date())
})

test('a socket that does not sign in within 5 s is closed with 4401', async () => {
  const real = await listeningApp()
  const socket = await TestSocket.open(real.wsUrl)
  const started = Date.now()
  const error = await socket.next((m) => m.type === 'error', 7_000)
  assert.deepEqual(error, { type: 'error', message: '请先登录', reason: 'unauthorized' })
  const closed = await socket.closed
  assert.equal(closed.code, REALTIME_CLOSE_CODES.unauthorized)
  const waited = Date.now() - started
  assert.ok(waited >= 4_500 && waited < 6_500, `closed after ${waited} ms`)
})

test('a ping before sign-in is answered, and the timer still closes the socket', async () => {
  const socket = await TestSocket.open(fast.wsUrl)
  socket.send({ type: 'ping' })
  await socket.next((m) => m.type === 'pong')
  assert.equal((await socket.closed).code, 4401)
})

test('a wrong token is refused and the socket closed', async () => {
  const socket = await TestSocket.open(fast.wsUrl)
  socket.send({ type: 'auth', token: 'not-a-token' })
  const error = await socket.next((m) => m.type === 'error')
  assert.equal(error.type === 'error' && error.reason, 'unauthorized')
  assert.equal((await socket.closed).code, 4401)
})

test('a good token gets ready; unknown messages and a broken auth are not fatal', async () => {
  const socket = await TestSocket.open(fast.wsUrl)
  socket.send('not json')
  socket.send({ type: 'subscribe', topic: 'x' })
  socket.send({ type: 'auth' })
  const bad = await socket.next((m) => m.type === 'error')
  assert.equal(bad.type === 'error' && bad.reason, 'bad-message')
  socket.send({ type: 'auth', token: alice.token })
  await socket.next((m) => m.type === 'ready')
  socket.send({ type: 'ping' })
  await socket.next((m) => m.type === 'pong')
  // Past the auth wait, a signed-in socket stays open.
  await new Promise((resolve) => setTimeout(resolve, 600))
  assert.equal(socket.ws.readyState, socket.ws.OPEN)
  socket.ws.close()
})

test("an event for Alice reaches Alice's sockets and not Bob's", async () => {
  const a1 = await TestSocket.signedIn(fast.wsUrl, alice.token)
  const a2 = await TestSocket.signedIn(fast.wsUrl, alice.token)
  const b = await TestSocket.signedIn(fast.wsUrl, bob.token)
  const event = { kind: 'consultation.message', consultationId: 'c1', cursor: '42' } as const
  await fast.app.realtime.publish([alice.user.id], event)
  assert.deepEqual(await a1.next(isEvent), { type: 'event', event })
  assert.deepEqual(await a2.next(isEvent), { type: 'event', event })
  assert.equal(await b.hears(isEvent, 300), false)
  await fast.app.realtime.publish([alice.user.id, bob.user.id, alice.user.id], {
    kind: 'messages.unread',
  })
  assert.deepEqual(await b.next(isEvent), { type: 'event', event: { kind: 'messages.unread' } })
  await a1.next(isEvent)
  // Each user once, however often listed.
  assert.equal(await a1.hears(isEvent, 300), false)
  for (const socket of [a1, a2, b]) socket.ws.close()
})

test('a sixth socket of one account closes the oldest (4409)', async () => {
  const user = await signUp(fast.app.db, new Date())
  const sockets: TestSocket[] = []
  for (let i = 0; i < 5; i += 1) sockets.push(await TestSocket.signedIn(fast.wsUrl, user.token))
  const sixth = await TestSocket.signedIn(fast.wsUrl, user.token)
  const error = await sockets[0]!.next((m) => m.type === 'error')
  assert.equal(error.type === 'error' && error.reason, 'too-many-sockets')
  assert.equal((await sockets[0]!.closed).code, REALTIME_CLOSE_CODES.tooManySockets)
  for (const socket of sockets.slice(1)) assert.equal(socket.ws.readyState, socket.ws.OPEN)
  await fast.app.realtime.publish([user.user.id], { kind: 'messages.unread' })
  for (const socket of [...sockets.slice(1), sixth]) await socket.next(isEvent)
  for (const socket of [...sockets, sixth]) socket.ws.close()
})

test('a socket whose session ended (logout) is closed at the next session check', async () => {
  const user = await signUp(fast.app.db, new Date())
  const socket = await TestSocket.signedIn(fast.wsUrl, user.token)
  const found = await fast.app.findSessionUser(user.token)
  await revokeSession(fast.app.db, found!.sessionId, new Date())
  const error = await socket.next((m) => m.type === 'error', 2_000)
  assert.equal(error.type === 'error' && error.reason, 'session-ended')
  assert.equal((await socket.closed).code, 4401)
  // The bus forgot it (every other socket of this file is closed by now).
  await until(() => fast.app.realtime.subscriberCount() === 0)
})

test('a client message over the size limit closes the socket (1009)', async () => {
  const socket = await TestSocket.signedIn(fast.wsUrl, alice.token)
  socket.send({ type: 'ping', pad: 'x'.repeat(REALTIME_MAX_CLIENT_MESSAGE_BYTES) })
  assert.equal((await socket.closed).code, 1009)
})

test('a socket that stops answering pings is dropped', async () => {
  const socket = await TestSocket.signedIn(fast.wsUrl, alice.token)
  // Stop the client's automatic pong: pause the underlying stream so pings go unread.
  ;(socket.ws as unknown as { _socket: { pause(): void } })._socket.pause()
  const before = fast.app.realtime.subscriberCount()
  await until(() => fast.app.realtime.subscriberCount() < before, 4_000)
})

test('a plain GET of the socket path is not a WebSocket', async () => {
  const res = await fetch(fast.wsUrl.replace('ws://', 'http://'))
  assert.equal(res.status, 404, await res.text())
})
