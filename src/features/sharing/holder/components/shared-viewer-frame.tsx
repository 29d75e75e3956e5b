import { useEffect, useState, type ReactNode } from 'react'
import { UserFacingError } from '@/services/api'
import type { ExamDetail } from '@/services/records'
import { getSharedExam, getSharedGrant, isShareEnded } from '@/services/shares'
import { Watermark } from '../../watermark'
import { useShareBearer } from '../hooks/use-shared'

/**
 * The viewer opened through a grant (`grantId`): no sign-in asked (a link visitor has no account;
 * the link's token is the key), frames carry the grant's token, and the watermark lies over it.
 */
export function SharedViewerFrame({ grantId, children }: { grantId: string; children: ReactNode }) {
  useShareBearer(grantId)
  const [watermark, setWatermark] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    getSharedGrant(grantId, { loading: false }).then(
      (grant) => live && setWatermark(grant.watermark),
      // Without the grant's words the mark still says who is unknown: 分享访客.
      () => live && setWatermark('分享访客'),
    )
    return () => {
      live = false
    }
  }, [grantId])
  return (
    <>
      {children}
      {watermark !== null && <Watermark text={watermark} cover="page" tone="light" />}
    </>
  )
}

/** The viewer's exam through the grant; an ended grant says 授权已失效 instead of "no image". */
export function sharedExamLoader(grantId: string): (examId: string) => Promise<ExamDetail> {
  return (examId) =>
    getSharedExam(grantId, examId, { loading: false }).catch((error: unknown) => {
      throw isShareEnded(error) ? new UserFacingError('授权已失效') : error
    })
}
