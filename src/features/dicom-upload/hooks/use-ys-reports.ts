import { useEffect } from 'react'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { listYsReports, type YsReportItem } from '@/services/dicom-upload'

/** While an upload in the list is being sent or parsed, the list is looked at again this often. */
export const YS_REFRESH_MS = 3000

/** 我的报告 (ys): uploads in progress or failed first, then the studies they became. */
export function useYsReports(): PagedList<YsReportItem> {
  const list = usePagedList<YsReportItem>(async (page, pageSize) => {
    const answer = await listYsReports(page, pageSize)
    return { items: answer.items, total: answer.total }
  })
  const pending = list.items.some(
    (item) => item.status === 'receiving' || item.status === 'processing',
  )
  const { refresh } = list
  useEffect(() => {
    if (!pending) return undefined
    const timer = setInterval(() => void refresh(), YS_REFRESH_MS)
    return () => clearInterval(timer)
  }, [pending, refresh])
  return list
}
