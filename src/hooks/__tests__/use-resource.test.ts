import { act, renderHook, waitFor } from '@testing-library/react'
import { HttpError, NetworkError, RequestCancelledError, isCancelled } from '@/services/http'
import { useResource, type ResourceSignal } from '../use-resource'

/** A promise the test settles by hand, so answers can arrive in any order. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (reason: unknown) => void
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok
    reject = fail
  })
  return { promise, resolve, reject }
}

describe('useResource', () => {
  it('shows loading, then the data', async () => {
    const { result } = renderHook(() => useResource('a', async () => 'report a'))
    expect(result.current.status).toBe('loading')
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', data: 'report a' }))
  })

  it('drops the answer for an older key that arrives after the newer one', async () => {
    const answers: Record<string, ReturnType<typeof deferred<string>>> = {
      a: deferred<string>(),
      b: deferred<string>(),
    }
    const { result, rerender } = renderHook(
      ({ id }: { id: string }) => useResource(id, () => answers[id].promise),
      { initialProps: { id: 'a' } },
    )
    rerender({ id: 'b' })
    await act(async () => answers.b.resolve('exam b'))
    expect(result.current).toMatchObject({ status: 'ready', data: 'exam b' })
    await act(async () => answers.a.resolve('exam a'))
    expect(result.current).toMatchObject({ status: 'ready', data: 'exam b' })
  })

  it('shows loading again when the key changes, not the old data', async () => {
    const next = deferred<string>()
    const { result, rerender } = renderHook(
      ({ id }: { id: string }) =>
        useResource(id, () => (id === 'a' ? Promise.resolve('a') : next.promise)),
      { initialProps: { id: 'a' } },
    )
    await waitFor(() => expect(result.current.status).toBe('ready'))
    rerender({ id: 'b' })
    expect(result.current.status).toBe('loading')
  })

  it("gives the server's Chinese words on an error, and a reload recovers", async () => {
    let fail = true
    const load = jest.fn(async () => {
      if (fail)
        throw new HttpError(
          { statusCode: 403, data: { code: 403, error: '仅运营人员可以使用此功能' }, header: {} },
          'business',
        )
      return [1, 2]
    })
    const { result } = renderHook(() => useResource('list', load))
    await waitFor(() => expect(result.current.status).toBe('error'))
    expect(result.current).toMatchObject({ message: '仅运营人员可以使用此功能' })
    fail = false
    await act(() => result.current.reload())
    expect(result.current).toMatchObject({ status: 'ready', data: [1, 2] })
    expect(load).toHaveBeenCalledTimes(2)
  })

  it("says what the network did, or the caller's words for an error without any", async () => {
    const offline = renderHook(() =>
      useResource('x', () => Promise.reject(new NetworkError('request:fail', false))),
    )
    await waitFor(() =>
      expect(offline.result.current).toMatchObject({ message: '网络异常，请检查网络后重试' }),
    )
    const odd = renderHook(() =>
      useResource('x', () => Promise.reject(new Error('boom')), { errorMessage: '文章加载失败' }),
    )
    await waitFor(() => expect(odd.result.current).toMatchObject({ message: '文章加载失败' }))
  })

  it('keeps the data on screen while a reload is in flight, then shows the new answer', async () => {
    let version = 1
    const second = deferred<number>()
    const { result } = renderHook(() =>
      useResource('n', () => (version === 1 ? Promise.resolve(1) : second.promise)),
    )
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', data: 1 }))
    version = 2
    let reloaded!: Promise<void>
    act(() => {
      reloaded = result.current.reload()
    })
    expect(result.current).toMatchObject({ status: 'ready', data: 1 })
    await act(async () => {
      second.resolve(2)
      await reloaded
    })
    expect(result.current).toMatchObject({ status: 'ready', data: 2 })
  })

  it('drops an answer that arrives after a newer reload', async () => {
    const calls = [deferred<string>(), deferred<string>()]
    let call = 0
    const { result } = renderHook(() => useResource('k', () => calls[call++].promise))
    act(() => void result.current.reload())
    await act(async () => calls[1].resolve('new'))
    await act(async () => calls[0].resolve('old'))
    expect(result.current).toMatchObject({ status: 'ready', data: 'new' })
  })

  it('asks nothing for a null key, and loads once a key is given', async () => {
    const load = jest.fn(async () => 'code')
    const { result, rerender } = renderHook(
      ({ open }: { open: boolean }) => useResource(open ? 'sheet' : null, load),
      { initialProps: { open: false } },
    )
    expect(result.current.status).toBe('idle')
    expect(load).not.toHaveBeenCalled()
    rerender({ open: true })
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', data: 'code' }))
  })

  it('replaces the data on screen without asking again', async () => {
    const load = jest.fn(async () => ({ unread: 3 }))
    const { result } = renderHook(() => useResource('m', load))
    await waitFor(() => expect(result.current.status).toBe('ready'))
    act(() => result.current.replace((current) => ({ unread: current.unread - 1 })))
    expect(result.current).toMatchObject({ status: 'ready', data: { unread: 2 } })
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('ignores an answer that arrives after the screen closed', async () => {
    const answer = deferred<string>()
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined)
    const { result, unmount } = renderHook(() => useResource('z', () => answer.promise))
    unmount()
    await act(async () => answer.resolve('late'))
    expect(result.current.status).toBe('loading')
    expect(errors).not.toHaveBeenCalled()
    errors.mockRestore()
  })

  it("aborts the old key's signal when the key changes, and the last one when the screen closes", async () => {
    const signals: Record<string, ResourceSignal> = {}
    const { rerender, unmount } = renderHook(
      ({ id }: { id: string }) =>
        useResource(id, (signal) => {
          signals[id] = signal
          return new Promise<string>(() => undefined)
        }),
      { initialProps: { id: 'a' } },
    )
    expect(signals.a.aborted).toBe(false)
    rerender({ id: 'b' })
    expect(signals.a.aborted).toBe(true)
    expect(signals.b.aborted).toBe(false)
    unmount()
    expect(signals.b.aborted).toBe(true)
  })

  it("aborts an in-flight load's signal when a newer reload starts", async () => {
    const signals: ResourceSignal[] = []
    const { result } = renderHook(() =>
      useResource('k', (signal) => {
        signals.push(signal)
        return new Promise<string>(() => undefined)
      }),
    )
    act(() => void result.current.reload())
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false])
  })

  describe('delayMs', () => {
    beforeEach(() => jest.useFakeTimers())
    afterEach(() => jest.useRealTimers())

    it('asks once the key has stayed for the delay, showing loading meanwhile', async () => {
      const load = jest.fn(async (q: string) => `hits for ${q}`)
      const { result, rerender } = renderHook(
        ({ q }: { q: string }) => useResource(q, () => load(q), { delayMs: 300 }),
        { initialProps: { q: '协' } },
      )
      act(() => jest.advanceTimersByTime(100))
      rerender({ q: '协和' })
      act(() => jest.advanceTimersByTime(299))
      expect(load).not.toHaveBeenCalled()
      expect(result.current.status).toBe('loading')
      await act(async () => jest.advanceTimersByTime(1))
      expect(load.mock.calls).toEqual([['协和']])
      expect(result.current).toMatchObject({ status: 'ready', data: 'hits for 协和' })
    })

    it('asks nothing once the screen closes during the delay; a reload asks at once', async () => {
      const load = jest.fn(async () => 'hits')
      const closed = renderHook(() => useResource('q', load, { delayMs: 300 }))
      closed.unmount()
      act(() => jest.advanceTimersByTime(1000))
      expect(load).not.toHaveBeenCalled()

      const open = renderHook(() => useResource('q', load, { delayMs: 300 }))
      await act(() => open.result.current.reload())
      expect(load).toHaveBeenCalledTimes(1)
      expect(open.result.current).toMatchObject({ status: 'ready', data: 'hits' })
    })

    it('a reload during the delay is the one ask: the waiting one is cancelled, not sent later', async () => {
      let call = 0
      const load = jest.fn(async () => `answer ${++call}`)
      const { result } = renderHook(() => useResource('q', load, { delayMs: 300 }))
      await act(() => result.current.reload())
      expect(result.current).toMatchObject({ status: 'ready', data: 'answer 1' })
      await act(async () => jest.advanceTimersByTime(1000))
      expect(load).toHaveBeenCalledTimes(1)
      expect(result.current).toMatchObject({ status: 'ready', data: 'answer 1' })
    })
  })

  it('leaves the screen as it was for an error ignoreError says is no answer', async () => {
    const cancelled = renderHook(() =>
      useResource('p', () => Promise.reject(new RequestCancelledError()), {
        ignoreError: isCancelled,
      }),
    )
    await act(async () => undefined)
    expect(cancelled.result.current.status).toBe('loading')

    const failed = renderHook(() =>
      useResource('p', () => Promise.reject(new NetworkError('request:fail', false)), {
        ignoreError: isCancelled,
      }),
    )
    await waitFor(() => expect(failed.result.current.status).toBe('error'))
  })

  it('shows loading on a restart, even with data on screen', async () => {
    const second = deferred<string>()
    let call = 0
    const { result } = renderHook(() =>
      useResource('s', () => (call++ === 0 ? Promise.resolve('locked') : second.promise)),
    )
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', data: 'locked' }))
    act(() => void result.current.restart())
    expect(result.current.status).toBe('loading')
    await act(async () => second.resolve('claimed'))
    expect(result.current).toMatchObject({ status: 'ready', data: 'claimed' })
  })
})
