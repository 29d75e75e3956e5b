import type { RealtimeServerMessage } from '@contract/main/realtime'
import {
  createRealtimeClient,
  PING_INTERVAL_MS,
  PONG_TIMEOUT_MS,
  type RealtimeDeps,
  type RealtimeNotice,
  type SocketLike,
  socketUrl,
} from '../realtime'

/** A SocketTask as Taro gives it on weapp and H5: handlers set once, the test plays the server. */
class FakeSocketTask implements SocketLike {
  sent: unknown[] = []
  closed = false
  private handlers: {
    open?: () => void
    close?: (result: { code?: number; reason?: string }) => void
    error?: (error: unknown) => void
    message?: (result: { data: unknown }) => void
  } = {}
  constructor(readonly url: string) {}
  send({ data }: { data: string }) {
    this.sent.push(JSON.parse(data))
  }
  close() {
    this.closed = true
  }
  onOpen(callback: () => void) {
    this.handlers.open = callback
  }
  onClose(callback: (result: { code?: number; reason?: string }) => void) {
    this.handlers.close = callback
  }
  onError(callback: (error: unknown) => void) {
    this.handlers.error = callback
  }
  onMessage(callback: (result: { data: unknown }) => void) {
    this.handlers.message = callback
  }
  // The server's side.
  open() {
    this.handlers.open?.()
  }
  serverSends(message: RealtimeServerMessage) {
    this.handlers.message?.({ data: JSON.stringify(message) })
  }
  serverCloses(code = 1006) {
    this.closed = true
    this.handlers.close?.({ code })
  }
  fail() {
    this.handlers.error?.({ errMsg: 'network' })
  }
}

function setUp(initialToken: string | null = 'token-1') {
  const sockets: FakeSocketTask[] = []
  let token = initialToken
  let tokenWatcher: ((token: string | null) => void) | undefined
  let show: (() => void) | undefined
  let hide: (() => void) | undefined
  let refuseConnect = false
  const deps: RealtimeDeps = {
    connect: async (url) => {
      if (refuseConnect) throw { errMsg: 'connectSocket:fail' }
      const socket = new FakeSocketTask(url)
      sockets.push(socket)
      return socket
    },
    url: () => 'wss://api.example.com/main/ws',
    token: () => token,
    watchToken: (callback) => {
      tokenWatcher = callback
      return () => undefined
    },
    onAppShow: (callback) => (show = callback),
    onAppHide: (callback) => (hide = callback),
  }
  const client = createRealtimeClient(deps)
  client.start()
  const heard: RealtimeNotice[] = []
  return {
    client,
    sockets,
    heard,
    listen: () => client.subscribe((notice) => heard.push(notice)),
    last: () => sockets[sockets.length - 1]!,
    setToken: (next: string | null) => {
      token = next
      tokenWatcher?.(next)
    },
    show: () => show?.(),
    hide: () => hide?.(),
    refuseConnect: (value: boolean) => (refuseConnect = value),
  }
}

/** Lets the connect promise settle. */
const flush = async () => {
  for (let i = 0; i < 3; i += 1) await Promise.resolve()
}

/** Opens the current socket and answers its auth with ready. */
async function signIn(t: ReturnType<typeof setUp>) {
  await flush()
  t.last().open()
  t.last().serverSends({ type: 'ready' })
}

beforeEach(() => jest.useFakeTimers())
afterEach(() => jest.useRealTimers())

describe('the app realtime client', () => {
  it('opens nothing until a screen listens, then one socket that signs in first', async () => {
    const t = setUp()
    await flush()
    expect(t.sockets).toHaveLength(0)
    const stopA = t.listen()
    const stopB = t.listen()
    await flush()
    expect(t.sockets).toHaveLength(1)
    expect(t.last().url).toBe('wss://api.example.com/main/ws')
    t.last().open()
    expect(t.last().sent).toEqual([{ type: 'auth', token: 'token-1' }])
    expect(t.client.status()).toBe('authenticating')
    t.last().serverSends({ type: 'ready' })
    expect(t.client.status()).toBe('ready')
    stopA()
    expect(t.last().closed).toBe(false)
    stopB()
    expect(t.last().closed).toBe(true)
    expect(t.sockets).toHaveLength(1)
  })

  it('hands events to every listener, and resync on each sign-in', async () => {
    const t = setUp()
    const other: RealtimeNotice[] = []
    t.listen()
    t.client.subscribe((notice) => other.push(notice))
    await signIn(t)
    t.last().serverSends({
      type: 'event',
      event: { kind: 'consultation.message', consultationId: 'c1', cursor: '7' },
    })
    t.last().serverSends({ type: 'resync' })
    // Not our protocol, or not JSON: ignored.
    t.last().serverSends({ type: 'event', event: { kind: 'unknown' } } as never)
    ;(
      t.last() as unknown as { handlers: { message: (r: { data: unknown }) => void } }
    ).handlers.message({
      data: 'not json',
    })
    const expected = [
      { kind: 'resync' },
      { kind: 'consultation.message', consultationId: 'c1', cursor: '7' },
      { kind: 'resync' },
    ]
    expect(t.heard).toEqual(expected)
    expect(other).toEqual(expected)
  })

  it('is not opened for a signed-out app, and opens at login', async () => {
    const t = setUp(null)
    t.listen()
    await flush()
    expect(t.sockets).toHaveLength(0)
    t.setToken('token-2')
    await signIn(t)
    expect(t.last().sent[0]).toEqual({ type: 'auth', token: 'token-2' })
  })

  it('reconnects after 1, 2, 5 and then every 10 s while someone listens', async () => {
    const t = setUp()
    t.listen()
    await signIn(t)
    const delays: number[] = []
    for (let round = 0; round < 5; round += 1) {
      const before = t.sockets.length
      t.last().serverCloses()
      let waited = 0
      while (t.sockets.length === before) {
        jest.advanceTimersByTime(500)
        waited += 500
        await flush()
        if (waited > 20_000) throw new Error('no reconnect')
      }
      delays.push(waited)
      t.last().open()
    }
    expect(delays).toEqual([1_000, 2_000, 5_000, 10_000, 10_000])
    // A sign-in resets the backoff.
    t.last().serverSends({ type: 'ready' })
    t.last().serverCloses()
    jest.advanceTimersByTime(1_000)
    await flush()
    expect(t.sockets).toHaveLength(7)
  })

  it('retries when connectSocket itself fails, and stops retrying once nobody listens', async () => {
    const t = setUp()
    t.refuseConnect(true)
    const stop = t.listen()
    await flush()
    expect(t.client.status()).toBe('waiting')
    t.refuseConnect(false)
    jest.advanceTimersByTime(1_000)
    await flush()
    expect(t.sockets).toHaveLength(1)
    t.last().serverCloses()
    stop()
    jest.advanceTimersByTime(60_000)
    await flush()
    expect(t.sockets).toHaveLength(1)
    expect(t.client.status()).toBe('idle')
  })

  it('closes in the background and reopens on show, telling listeners to resync', async () => {
    const t = setUp()
    t.listen()
    await signIn(t)
    t.heard.length = 0
    t.hide()
    expect(t.last().closed).toBe(true)
    jest.advanceTimersByTime(60_000)
    await flush()
    expect(t.sockets).toHaveLength(1)
    t.show()
    expect(t.heard).toEqual([{ kind: 'resync' }])
    await signIn(t)
    expect(t.sockets).toHaveLength(2)
    expect(t.heard).toEqual([{ kind: 'resync' }, { kind: 'resync' }])
  })

  it('closes at logout and signs in afresh with a new token', async () => {
    const t = setUp()
    t.listen()
    await signIn(t)
    t.setToken(null)
    expect(t.last().closed).toBe(true)
    expect(t.client.status()).toBe('idle')
    t.setToken('token-3')
    await signIn(t)
    expect(t.sockets).toHaveLength(2)
    expect(t.last().sent[0]).toEqual({ type: 'auth', token: 'token-3' })
  })

  it('does not hammer the server with a refused token, whatever close code H5 reports', async () => {
    const t = setUp()
    t.listen()
    await flush()
    t.last().open()
    t.last().serverSends({ type: 'error', message: '请先登录', reason: 'unauthorized' })
    t.last().serverCloses(1006)
    jest.advanceTimersByTime(60_000)
    await flush()
    expect(t.sockets).toHaveLength(1)
    t.setToken('token-4')
    await flush()
    expect(t.sockets).toHaveLength(2)
  })

  it('a socket displaced by a newer one of the same account waits for the next show', async () => {
    const t = setUp()
    t.listen()
    await signIn(t)
    t.last().serverSends({ type: 'error', message: '连接过多', reason: 'too-many-sockets' })
    t.last().serverCloses(4409)
    jest.advanceTimersByTime(60_000)
    await flush()
    expect(t.sockets).toHaveLength(1)
    t.hide()
    t.show()
    await flush()
    expect(t.sockets).toHaveLength(2)
  })

  it('pings, and replaces a socket that stops answering', async () => {
    const t = setUp()
    t.listen()
    await signIn(t)
    jest.advanceTimersByTime(PING_INTERVAL_MS)
    expect(t.last().sent).toContainEqual({ type: 'ping' })
    t.last().serverSends({ type: 'pong' })
    jest.advanceTimersByTime(PING_INTERVAL_MS + PONG_TIMEOUT_MS)
    expect(t.last().closed).toBe(true)
    jest.advanceTimersByTime(1_000)
    await flush()
    expect(t.sockets).toHaveLength(2)
  })

  it('an error without a close is a lost socket too (weapp reports both, H5 may not)', async () => {
    const t = setUp()
    t.listen()
    await signIn(t)
    t.last().fail()
    expect(t.sockets[0]!.closed).toBe(true)
    jest.advanceTimersByTime(1_000)
    await flush()
    expect(t.sockets).toHaveLength(2)
  })
})

describe('socketUrl', () => {
  it('turns the main service base into a ws address', () => {
    expect(socketUrl('https://api.example.com/main', '')).toBe('wss://api.example.com/main/ws')
    expect(socketUrl('http://127.0.0.1:8080/main', '')).toBe('ws://127.0.0.1:8080/main/ws')
    expect(socketUrl('/main', 'https://app.example.com')).toBe('wss://app.example.com/main/ws')
  })
})
