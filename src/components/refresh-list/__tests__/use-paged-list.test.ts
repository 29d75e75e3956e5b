import { renderHook, act, waitFor } from '@testing-library/react'
import { usePagedList, type PageResult } from '../use-paged-list'

const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i)

describe('usePagedList', () => {
  it('loads the first page of 10 on mount', async () => {
    const fetchPage = jest.fn(async (page: number, size: number) => ({
      items: rows((page - 1) * size, size),
    }))
    const { result } = renderHook(() => usePagedList(fetchPage))
    expect(result.current.status).toBe('loading')
    await waitFor(() => expect(result.current.status).toBe('ready'))
    expect(fetchPage).toHaveBeenCalledWith(1, 10)
    expect(result.current.items).toHaveLength(10)
    expect(result.current.loadMore).toBe('idle')
  })

  it('appends the next page and stops at a short page', async () => {
    const fetchPage = async (page: number): Promise<PageResult<number>> => ({
      items: page === 1 ? rows(0, 10) : rows(10, 3),
    })
    const { result } = renderHook(() => usePagedList(fetchPage))
    await waitFor(() => expect(result.current.status).toBe('ready'))
    await act(() => result.current.loadNext())
    expect(result.current.items).toEqual(rows(0, 13))
    expect(result.current.loadMore).toBe('nomore')
  })

  it('uses the total when the server gives one', async () => {
    const fetchPage = async (page: number) => ({ items: rows((page - 1) * 10, 10), total: 20 })
    const { result } = renderHook(() => usePagedList(fetchPage))
    await waitFor(() => expect(result.current.status).toBe('ready'))
    expect(result.current.loadMore).toBe('idle')
    await act(() => result.current.loadNext())
    expect(result.current.loadMore).toBe('nomore')
  })

  it('reports a failed first page as error, and a retry recovers', async () => {
    let fail = true
    const fetchPage = async () => {
      if (fail) throw new Error('offline')
      return { items: rows(0, 2) }
    }
    const { result } = renderHook(() => usePagedList(fetchPage))
    await waitFor(() => expect(result.current.status).toBe('error'))
    fail = false
    await act(() => result.current.refresh())
    expect(result.current.status).toBe('ready')
    expect(result.current.items).toEqual([0, 1])
  })

  it('keeps loaded rows when a later page fails', async () => {
    const fetchPage = async (page: number) => {
      if (page === 2) throw new Error('offline')
      return { items: rows(0, 10) }
    }
    const { result } = renderHook(() => usePagedList(fetchPage))
    await waitFor(() => expect(result.current.status).toBe('ready'))
    await act(() => result.current.loadNext())
    expect(result.current.loadMore).toBe('error')
    expect(result.current.items).toHaveLength(10)
  })

  it('drops a slow older page when a refresh has started since', async () => {
    let releasePage2: (value: PageResult<number>) => void = () => {}
    const fetchPage = (page: number) =>
      page === 2
        ? new Promise<PageResult<number>>((resolve) => (releasePage2 = resolve))
        : Promise.resolve({ items: rows(100, 10) })
    const { result } = renderHook(() => usePagedList(fetchPage))
    await waitFor(() => expect(result.current.status).toBe('ready'))
    let pending: Promise<void> = Promise.resolve()
    act(() => {
      pending = result.current.loadNext()
    })
    await act(() => result.current.refresh())
    await act(async () => {
      releasePage2({ items: rows(999, 10) })
      await pending
    })
    expect(result.current.items).toEqual(rows(100, 10))
  })
})
