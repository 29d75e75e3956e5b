import { useDidShow } from '@tarojs/taro'
import { useRef } from 'react'
import { type PagedList, usePagedList } from '@/components/refresh-list'
import { type Resource, useResource } from '@/hooks/use-resource'
import {
  getWallet,
  listWalletTrades,
  type TradeKind,
  type WalletOverview,
  type WalletTrade,
} from '@/services/wallet'

/** 交易记录's filter: a kind of movement, a month (`2026-11`, China time), or neither. */
export interface TradeFilter {
  kind: TradeKind | null
  month: string | null
}

export const NO_FILTER: TradeFilter = { kind: null, month: null }

/** A filter as a string, for keying the list: a new filter is a new list, never a mix. */
export const filterKey = (filter: TradeFilter) => `${filter.kind ?? 'all'}|${filter.month ?? 'all'}`

/** The balance, what is held, income and tax: 我的钱包's head and 提现's limits. */
export function useWalletOverview(): Resource<WalletOverview> {
  return useResource('wallet', () => getWallet())
}

/** One filter's 交易记录, page by page; the view mounts one per filter (keyed). */
export function useWalletTrades(filter: TradeFilter): PagedList<WalletTrade> {
  return usePagedList<WalletTrade>(async (page, pageSize) => {
    const answer = await listWalletTrades({
      page,
      pageSize,
      ...(filter.kind ? { kind: filter.kind } : {}),
      ...(filter.month ? { month: filter.month } : {}),
    })
    return { items: answer.items, total: answer.total }
  })
}

/**
 * Loads again when the person comes back to the page (from 提现, from a withdrawal cancelled), but
 * not on the first show: the page has just loaded.
 */
export function useRefreshOnReturn(refresh: () => unknown): void {
  const shown = useRef(false)
  useDidShow(() => {
    if (!shown.current) {
      shown.current = true
      return
    }
    void refresh()
  })
}
