import { renderHook } from '@testing-library/react'
import type { RealtimeListener } from '@/services/realtime'
import { useRealtime } from '../use-realtime'

const mockListeners = new Set<RealtimeListener>()
jest.mock('@/services/realtime', () => ({
  subscribeRealtime: (listener: RealtimeListener) => {
    mockListeners.add(listener)
    return () => mockListeners.delete(listener)
  },
}))

it('listens while mounted, always with the latest callback, and stops on unmount', () => {
  const first = jest.fn()
  const second = jest.fn()
  const { rerender, unmount } = renderHook(({ listener }) => useRealtime(listener), {
    initialProps: { listener: first },
  })
  expect(mockListeners.size).toBe(1)
  rerender({ listener: second })
  expect(mockListeners.size).toBe(1)
  for (const listener of mockListeners) listener({ kind: 'messages.unread' })
  expect(first).not.toHaveBeenCalled()
  expect(second).toHaveBeenCalledWith({ kind: 'messages.unread' })
  unmount()
  expect(mockListeners.size).toBe(0)
})
