import { type PagedList, usePagedList } from '@/components/refresh-list'
import { type Resource, useResource } from '@/hooks/use-resource'
import {
  getWalletTrade,
  getWithdrawal,
  listWithdrawals,
  type WalletTradeDetail,
  type Withdrawal,
} from '@/services/wallet'

/** 提现记录, newest first. */
export function useWithdrawals(): PagedList<Withdrawal> {
  return usePagedList<Withdrawal>(async (page, pageSize) => {
    const answer = await listWithdrawals(page, pageSize)
    return { items: answer.items, total: answer.total }
  })
}

/** 提现详情: one withdrawal; its actions put the server's answer in place (`replace`). */
export function useWithdrawal(id: string): Resource<Withdrawal> {
  return useResource(`withdrawal:${id}`, () => getWithdrawal(id))
}

/** 交易详情: one movement of the expert's money, with its consultation's split when it is one. */
export function useWalletTrade(id: string): Resource<WalletTradeDetail> {
  return useResource(`trade:${id}`, () => getWalletTrade(id))
}
