import { act, render } from '@testing-library/react'
import { prefetchOnce, usePrefetchWhenIdle } from '../../../features/viewer/prefetch'
import { usePrefetchViewer } from '../viewer-prefetch.h5'

function Opener({ load, when }: { load: () => Promise<unknown>; when: boolean }) {
  usePrefetchWhenIdle(load, when)
  return null
}

beforeEach(() => jest.useFakeTimers())
afterEach(() => jest.useRealTimers())

describe('loading the viewer page ahead (tap → first pixels)', () => {
  it('loads once the page is idle, only when there is something to open, once per document', async () => {
    const load = jest.fn().mockResolvedValue({})
    const page = render(<Opener load={load} when={false} />)
    await act(async () => void jest.advanceTimersByTime(5000))
    expect(load).not.toHaveBeenCalled()

    page.rerender(<Opener load={load} when />)
    // Not during the page's own first render and requests.
    expect(load).not.toHaveBeenCalled()
    await act(async () => void jest.advanceTimersByTime(5000))
    expect(load).toHaveBeenCalledTimes(1)

    // Another opener (影像详情 after a report): the module is already there.
    render(<Opener load={load} when />)
    await act(async () => void jest.advanceTimersByTime(5000))
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('a page left before it was idle loads nothing', async () => {
    const load = jest.fn().mockResolvedValue({})
    render(<Opener load={load} when />).unmount()
    await act(async () => void jest.advanceTimersByTime(5000))
    expect(load).not.toHaveBeenCalled()
  })

  it('uses requestIdleCallback where there is one', async () => {
    const load = jest.fn().mockResolvedValue({})
    const idle = jest.fn((callback: () => void) => setTimeout(callback, 50) as unknown as number)
    const cancel = jest.fn()
    Object.assign(globalThis, { requestIdleCallback: idle, cancelIdleCallback: cancel })
    try {
      render(<Opener load={load} when />)
      expect(idle).toHaveBeenCalledWith(expect.any(Function), { timeout: 2000 })
      await act(async () => void jest.advanceTimersByTime(50))
      expect(load).toHaveBeenCalledTimes(1)
    } finally {
      delete (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback
      delete (globalThis as { cancelIdleCallback?: unknown }).cancelIdleCallback
    }
  })

  it('a failed load (offline) is tried again by the next opener', async () => {
    const load = jest.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({})
    await prefetchOnce(load)
    await prefetchOnce(load)
    expect(load).toHaveBeenCalledTimes(2)
    await prefetchOnce(load)
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('the H5 openers load the viewer page through the router’s own loader (one chunk, not a copy)', async () => {
    const page = jest.fn().mockResolvedValue({ default: () => null })
    const other = jest.fn()
    const routes = [
      { path: 'pages/personalImage/detail', load: other },
      { path: 'pages/personalImage/viewer', load: (...args: unknown[]) => [page(), ...args] },
    ]
    Object.assign(globalThis, { __taroAppConfig: { routes } })
    try {
      function DetailPage() {
        usePrefetchViewer(true)
        return null
      }
      render(<DetailPage />)
      expect(page).not.toHaveBeenCalled()
      await act(async () => void jest.advanceTimersByTime(5000))
      expect(page).toHaveBeenCalledTimes(1)
      expect(other).not.toHaveBeenCalled()
    } finally {
      delete (globalThis as { __taroAppConfig?: unknown }).__taroAppConfig
    }
  })
})
