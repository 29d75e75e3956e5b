import { useCallback, useEffect, useState } from 'react'
import { z } from 'zod/mini'
import { SEARCH_QUERY_MAX, SearchQuerySchema } from '@contract/main/content'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { useResource } from '@/hooks/use-resource'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  clearSearchHistory,
  listHotSearches,
  listSearchHistory,
  search,
  type SearchHit,
  type SearchKind,
} from '@/services/content'
import { useSessionStore } from '@/stores/session-store'

export const SEARCH_TABS: { key: 'all' | SearchKind; title: string }[] = [
  { key: 'all', title: '全部' },
  { key: 'article', title: '文章' },
  { key: 'video', title: '视频' },
  { key: 'hospital', title: '医院' },
  { key: 'expert', title: '专家' },
]

export type SearchTab = (typeof SEARCH_TABS)[number]['key']

export interface SearchModel {
  input: string
  setInput: (value: string) => void
  /** The query searched (null: nothing yet, history and hot words show). */
  query: string | null
  submit: (q?: string) => void
  reset: () => void
  tab: SearchTab
  setTab: (tab: SearchTab) => void
  totals: Record<SearchKind, number> | null
  /** 全部: a few hits of each kind. */
  preview: { status: 'loading' | 'ready' | 'error'; hits: SearchHit[]; error: string }
  history: { id: string; q: string }[]
  hot: string[]
  signedIn: boolean
  removeHistory: (id?: string) => Promise<void>
}

/** 搜索: history and hot words first; then results by kind with totals, highlighted. */
export function useSearch(): SearchModel {
  const signedIn = useSessionStore((state) => state.token !== null)
  const [input, setInput] = useState('')
  const [query, setQuery] = useState<string | null>(null)
  const [tab, setTab] = useState<SearchTab>('all')
  // Each 搜索 asks afresh, even for the same words (`searches` counts them).
  const [searches, setSearches] = useState(0)
  const [history, setHistory] = useState<{ id: string; q: string }[]>([])
  const [hot, setHot] = useState<string[]>([])

  const loadHistory = useCallback(() => {
    if (!signedIn) return setHistory([])
    listSearchHistory().then(setHistory, () => undefined)
  }, [signedIn])

  useEffect(() => {
    listHotSearches().then(setHot, () => undefined)
  }, [])
  useEffect(loadHistory, [loadHistory])

  const submit = useCallback(
    (q?: string) => {
      const text = q ?? input
      const parsed = z.safeParse(SearchQuerySchema, text)
      if (!parsed.success) {
        showToast(parsed.error.issues[0]?.message ?? '请输入要搜索的内容')
        return
      }
      setInput(parsed.data)
      setQuery(parsed.data)
      setTab('all')
      setSearches((n) => n + 1)
    },
    [input],
  )

  const results = useResource(
    query === null ? null : `${searches}:${query}`,
    async (signal) => {
      const answer = await search({ q: query ?? '' })
      if (!signal.aborted) loadHistory()
      return answer
    },
    { errorMessage: '搜索失败，请稍后重试' },
  )
  const totals = results.status === 'ready' ? results.data.totals : null
  const preview: SearchModel['preview'] =
    results.status === 'ready'
      ? { status: 'ready', hits: results.data.hits, error: '' }
      : results.status === 'error'
        ? { status: 'error', hits: [], error: results.message }
        : { status: 'loading', hits: [], error: '' }

  const removeHistory = useCallback(async (id?: string) => {
    try {
      await clearSearchHistory(id)
    } catch (error) {
      showToast(describeError(error))
      return
    }
    setHistory((current) => (id ? current.filter((item) => item.id !== id) : []))
  }, [])

  return {
    input,
    setInput: (value) => setInput(value.slice(0, SEARCH_QUERY_MAX)),
    query,
    submit,
    reset: () => {
      setQuery(null)
      setInput('')
    },
    tab,
    setTab,
    totals,
    preview,
    history,
    hot,
    signedIn,
    removeHistory,
  }
}

/** One kind's results, paged (the tab of that kind); the page mounts it keyed by query and kind. */
export function useKindResults(q: string, kind: SearchKind): PagedList<SearchHit> {
  return usePagedList<SearchHit>(async (page, pageSize) => {
    const answer = await search({ q, kind, page, pageSize })
    return { items: answer.hits, total: answer.totals[kind] }
  })
}
