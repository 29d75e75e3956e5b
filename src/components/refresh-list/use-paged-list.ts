import { useCallback, useEffect, useRef, useState } from 'react'

/** SPEC section 9's list numbers. Distances are CSS px, as Taro's onReachBottomDistance takes them. */
export const LIST_DEFAULTS = {
  pageSize: 10,
  pullDistance: 80,
  loadMoreOffset: 80,
  /** "-- END --" only under a list of at least this many rows: under one or two rows it looks odd. */
  noMoreMinItems: 5,
  finishDelay: 300,
} as const

export interface PageResult<T> {
  items: T[]
  /** When the server knows the total, "no more" is exact; otherwise a short page means the end. */
  total?: number
}

export type FetchPage<T> = (page: number, pageSize: number) => Promise<PageResult<T>>
export type ListStatus = 'loading' | 'ready' | 'error'
export type LoadMoreState = 'idle' | 'loading' | 'nomore' | 'error'

export interface PagedList<T> {
  items: T[]
  /** State of the first page (and of a refresh that has nothing to show yet). */
  status: ListStatus
  loadMore: LoadMoreState
  error: unknown
  refresh: () => Promise<void>
  loadNext: () => Promise<void>
}

/**
 * Page-by-page loading with refresh. A refresh supersedes any load in flight: answers that arrive
 * for an older generation are dropped, so a slow page 3 never lands on top of a fresh page 1.
 */
export function usePagedList<T>(
  fetchPage: FetchPage<T>,
  { pageSize = LIST_DEFAULTS.pageSize }: { pageSize?: number } = {},
): PagedList<T> {
  const [items, setItems] = useState<T[]>([])
  const [status, setStatus] = useState<ListStatus>('loading')
  const [loadMore, setLoadMore] = useState<LoadMoreState>('idle')
  const [error, setError] = useState<unknown>(null)
  const generation = useRef(0)
  const nextPage = useRef(1)
  const busy = useRef(false)
  const loadedCount = useRef(0)
  const fetchRef = useRef(fetchPage)
  fetchRef.current = fetchPage

  const isLast = (result: PageResult<T>, loaded: number) =>
    result.total !== undefined ? loaded >= result.total : result.items.length < pageSize

  const refresh = useCallback(async () => {
    const mine = ++generation.current
    busy.current = true
    setError(null)
    setStatus((current) => (current === 'ready' ? 'ready' : 'loading'))
    try {
      const result = await fetchRef.current(1, pageSize)
      if (mine !== generation.current) return
      nextPage.current = 2
      loadedCount.current = result.items.length
      setItems(result.items)
      setStatus('ready')
      setLoadMore(isLast(result, result.items.length) ? 'nomore' : 'idle')
    } catch (cause) {
      if (mine !== generation.current) return
      setError(cause)
      setStatus('error')
    } finally {
      if (mine === generation.current) busy.current = false
    }
    // isLast only reads pageSize, which is a dependency already.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pageSize])

  const loadNext = useCallback(async () => {
    if (busy.current) return
    const mine = generation.current
    busy.current = true
    setLoadMore('loading')
    try {
      const result = await fetchRef.current(nextPage.current, pageSize)
      if (mine !== generation.current) return
      nextPage.current += 1
      loadedCount.current += result.items.length
      setItems((current) => current.concat(result.items))
      setLoadMore(isLast(result, loadedCount.current) ? 'nomore' : 'idle')
    } catch (cause) {
      if (mine !== generation.current) return
      setError(cause)
      setLoadMore('error')
    } finally {
      if (mine === generation.current) busy.current = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pageSize])

  useEffect(() => {
    void refresh()
  }, [refresh])

  return { items, status, loadMore, error, refresh, loadNext }
}
