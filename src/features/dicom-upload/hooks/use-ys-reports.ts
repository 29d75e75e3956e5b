import { useCallback, useEffect } from 'react'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { useResource } from '@/hooks/use-resource'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  cancelDicomUpload,
  getStorageQuota,
  listYsReports,
  type StorageQuota,
  type YsReportItem,
} from '@/services/dicom-upload'

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

/** 已用 … / 共 …: the person's storage for uploads; null until known (a failure leaves it out). */
export function useStorageQuota(): { quota: StorageQuota | null; reload: () => void } {
  const quota = useResource('quota', () => getStorageQuota())
  const { reload } = quota
  return {
    quota: quota.status === 'ready' ? quota.data : null,
    reload: useCallback(() => void reload(), [reload]),
  }
}

/** 删除 a failed upload's record, after confirming; the list is asked again. */
export async function removeFailedUpload(uploadId: string, refresh: () => Promise<void>) {
  if (!(await showModal({ title: '删除记录', content: '删除这条上传失败的记录？' }))) return
  try {
    await cancelDicomUpload(uploadId)
    await refresh()
  } catch (error) {
    showToast(describeError(error))
  }
}
