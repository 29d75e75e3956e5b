import { useRouter } from '@tarojs/taro'
import { useMemo, useRef, useState } from 'react'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { createFrameCache, ImageViewer } from '../../features/viewer/components/image-viewer'
import { tapOnTimeline, timelineNow } from '../../features/viewer/hooks/timing'
import { useAuthorisedImageSrc, useViewerData } from '../../features/viewer/hooks/use-viewer-data'

interface Target {
  seriesUid?: string
  sop?: string
  frame?: number
}

function positive(value: string | undefined): number | undefined {
  const n = Number(value)
  return Number.isInteger(n) && n >= 1 ? n : undefined
}

function ViewerContent({
  examId,
  initial,
  tapAt,
}: {
  examId: string
  initial: Target
  tapAt?: number
}) {
  const [target, setTarget] = useState<Target>(initial)
  const [attempt, setAttempt] = useState(0)
  const [cache] = useState(createFrameCache)
  // From the tap when the opener said when it was (H5, same document), else from this page's start.
  const pageStart = useRef(timelineNow())
  const firstPixelsFrom = useMemo(() => tapOnTimeline(tapAt) ?? pageStart.current, [tapAt])
  const data = useViewerData({ examId, ...target }, attempt)
  const previewSrc = useAuthorisedImageSrc(data.status === 'error' ? null : data.previewPath)

  if (data.status === 'error') {
    return (
      <PageState status="error" message={data.message} onRetry={() => setAttempt((n) => n + 1)} />
    )
  }
  if (data.status === 'loading') return <PageState status="loading" />
  return (
    <ImageViewer
      key={data.series.seriesUid}
      exam={data.exam}
      series={data.series}
      studyUid={data.studyUid}
      slices={data.slices}
      startIndex={data.startIndex}
      previewSrc={previewSrc}
      firstPixelsFrom={firstPixelsFrom}
      cache={cache}
      onSwitchSeries={(seriesUid, sop, frame) => setTarget({ seriesUid, sop, frame })}
    />
  )
}

/** 影像查看: the DICOM viewer of one exam's series (issue 8; not in SPEC's route table). */
export default function ImageViewerPage() {
  const { examId, seriesUid, sop, frame, t } = useRouter().params
  return (
    <RequireLogin text="登录后才能查看影像">
      {examId ? (
        <ViewerContent
          examId={examId}
          initial={{
            ...(seriesUid ? { seriesUid } : {}),
            ...(sop ? { sop } : {}),
            ...(positive(frame) ? { frame: positive(frame) } : {}),
          }}
          tapAt={positive(t)}
        />
      ) : (
        <PageState status="empty" message="缺少检查编号，请从影像详情进入" />
      )}
    </RequireLogin>
  )
}
