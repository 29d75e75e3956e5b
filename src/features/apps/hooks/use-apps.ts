import { useState } from 'react'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { useResource, type Resource } from '@/hooks/use-resource'
import { type AppFeature, getPoints, listFeatures } from '@/services/apps'
import { useSessionStore } from '@/stores/session-store'

export interface PointEntry {
  id: string
  reasonLabel: string
  delta: number
  balanceAfter: number
  at: string
}

export interface AppsModel {
  features: Resource<AppFeature[]>
  signedIn: boolean
  balance: number | null
  ledger: PagedList<PointEntry>
}

/** 应用中心: the server's features (on/off, icons, order) and, signed in, 我的积分 with its ledger. */
export function useApps(): AppsModel {
  const signedIn = useSessionStore((state) => state.token !== null)
  const features = useResource('features', () => listFeatures(), {
    errorMessage: '应用加载失败，请稍后重试',
  })
  const [balance, setBalance] = useState<number | null>(null)
  const ledger = usePagedList<PointEntry>(async (page, pageSize) => {
    if (!signedIn) return { items: [], total: 0 }
    const answer = await getPoints(page, pageSize)
    if (page === 1) setBalance(answer.balance)
    return { items: answer.items, total: answer.total }
  })
  return { features, signedIn, balance, ledger }
}
