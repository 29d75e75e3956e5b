import { useDidHide, useDidShow } from '@tarojs/taro'
import { useEffect, useRef, useState } from 'react'
import { useResource } from '@/hooks/use-resource'
import type { ExamDetail, ReportDetail } from '@/services/records'
import {
  enterShare,
  forgetShareSession,
  getSharedExam,
  getSharedGrant,
  getSharedReport,
  isShareEnded,
  leaveShare,
  type ReceivedGrant,
} from '@/services/shares'

export type Shared<T> =
  | { status: 'loading'; reload: () => void }
  | { status: 'error'; message: string; reload: () => void }
  /** The grant ended (revoked, expired, used up) or this link's session did: 授权已失效. */
  | { status: 'ended'; reload: () => void }
  | { status: 'ready'; data: T; reload: () => void }

/**
 * While this page shows, thumbnails, metadata and frames carry this grant's link token (or, for a
 * signed-in grantee, their login's); the page lets go when it hides or closes.
 */
export function useShareBearer(grantId: string): void {
  const [holder] = useState(() => ({}))
  // Before the first render's effects (thumbnails start loading in them), not only on show.
  const entered = useRef(false)
  if (!entered.current) {
    entered.current = true
    enterShare(holder, grantId)
  }
  useDidShow(() => enterShare(holder, grantId))
  useDidHide(() => leaveShare(holder))
  useEffect(() => () => leaveShare(holder), [holder])
}

/**
 * One thing read through a grant. While the page shows, DICOMweb reads carry this grant's link
 * token (enterShare); a 403 授权已失效 from the load turns the page into the ended state and the
 * link session is forgotten.
 */
export function useShared<T>(grantId: string, key: string, load: () => Promise<T>): Shared<T> {
  useShareBearer(grantId)
  const resource = useResource(
    key,
    async () => {
      try {
        return await load()
      } catch (error) {
        if (isShareEnded(error)) forgetShareSession(grantId)
        throw error
      }
    },
    { errorMessage: '加载失败，请检查网络后重试' },
  )
  const reload = () => void resource.reload()
  if (resource.status === 'ready') return { status: 'ready', data: resource.data, reload }
  if (resource.status === 'loading') return { status: 'loading', reload }
  if (isShareEnded(resource.error)) return { status: 'ended', reload }
  return { status: 'error', message: resource.message, reload }
}

/** 查看分享: the grant's records. */
export function useSharedGrant(grantId: string): Shared<ReceivedGrant> {
  return useShared(grantId, grantId, () => getSharedGrant(grantId))
}

/** A shared exam, with the grant it came through (for the banner). */
export function useSharedExam(
  grantId: string,
  examId: string,
): Shared<[ReceivedGrant, ExamDetail]> {
  return useShared(grantId, `${grantId}:${examId}`, () =>
    Promise.all([getSharedGrant(grantId), getSharedExam(grantId, examId)]),
  )
}

/** A shared report, with the grant it came through (for the banner and 查看影像). */
export function useSharedReport(
  grantId: string,
  reportId: string,
): Shared<[ReceivedGrant, ReportDetail]> {
  return useShared(grantId, `${grantId}:${reportId}`, () =>
    Promise.all([getSharedGrant(grantId), getSharedReport(grantId, reportId)]),
  )
}
