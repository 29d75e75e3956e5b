import { ScreenLoadError, withScreenLoading } from '../screen-loading'

// SPEC section 9: a screen loads lazily, shows loading after 200 ms, and times out after 60000 ms
// as a chunk-load error.

function harness() {
  const events: string[] = []
  const ui = {
    showLoading: () => events.push('show'),
    hideLoading: () => events.push('hide'),
    failed: (error: ScreenLoadError) =>
      events.push(`failed:${error.timedOut ? 'timeout' : 'error'}`),
  }
  const resolvers: Array<(value: unknown) => void> = []
  const rejecters: Array<(error: unknown) => void> = []
  const load = jest.fn(
    (_chunk: string) =>
      new Promise((resolve, reject) => {
        resolvers.push(resolve)
        rejecters.push(reject)
      }),
  )
  return { events, load: withScreenLoading(load, ui), resolvers, rejecters, raw: load }
}

const settle = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value, error: undefined as unknown }),
    (error: unknown) => ({ value: undefined, error }),
  )

beforeEach(() => {
  jest.useFakeTimers()
})

describe('screen loading', () => {
  it('shows nothing for a chunk that arrives within 200 ms', async () => {
    const h = harness()
    const result = settle(h.load('home'))
    await jest.advanceTimersByTimeAsync(199)
    h.resolvers[0]('module')
    expect((await result).value).toBe('module')
    await jest.advanceTimersByTimeAsync(1000)
    expect(h.events).toEqual([])
    expect(h.raw).toHaveBeenCalledWith('home')
  })

  it('shows 加载中 after 200 ms and hides it when the chunk arrives', async () => {
    const h = harness()
    const result = settle(h.load('about'))
    await jest.advanceTimersByTimeAsync(200)
    expect(h.events).toEqual(['show'])
    h.resolvers[0]('module')
    await result
    expect(h.events).toEqual(['show', 'hide'])
  })

  it('fails as a ChunkLoadError after 60000 ms, hides the loading, then offers to reload', async () => {
    const h = harness()
    const result = settle(h.load('slow'))
    await jest.advanceTimersByTimeAsync(59_999)
    expect(h.events).toEqual(['show'])
    await jest.advanceTimersByTimeAsync(1)
    const { error } = await result
    expect(error).toBeInstanceOf(ScreenLoadError)
    expect((error as ScreenLoadError).name).toBe('ChunkLoadError')
    expect((error as ScreenLoadError).timedOut).toBe(true)
    expect(h.events).toEqual(['show', 'hide', 'failed:timeout'])
    // A chunk that arrives after all changes nothing.
    h.resolvers[0]('late')
    await jest.advanceTimersByTimeAsync(1000)
    expect(h.events).toHaveLength(3)
  })

  it('a chunk that cannot be fetched fails the same way, at once', async () => {
    const h = harness()
    const result = settle(h.load('offline'))
    h.rejecters[0](new Error('Loading chunk 7 failed.'))
    const { error } = await result
    expect((error as ScreenLoadError).timedOut).toBe(false)
    expect(h.events).toEqual(['failed:error'])
  })

  it('one indicator for overlapping loads, hidden when the last one is done', async () => {
    const h = harness()
    const first = settle(h.load('a'))
    const second = settle(h.load('b'))
    await jest.advanceTimersByTimeAsync(300)
    h.resolvers[0]('a')
    await first
    expect(h.events).toEqual(['show'])
    h.resolvers[1]('b')
    await second
    expect(h.events).toEqual(['show', 'hide'])
  })
})
