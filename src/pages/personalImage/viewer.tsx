import { Image, View } from '@tarojs/components'
import { useMemo, useRef, useState } from 'react'
import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import {
  SharedViewerFrame,
  sharedExamLoader,
} from '../../features/sharing/holder/components/shared-viewer-frame'
import {
  createFrameCache,
  ImageViewer,
  type ShownView,
} from '../../features/viewer/components/image-viewer'
import { recordFirstPixels, tapOnTimeline, timelineNow } from '../../features/viewer/hooks/timing'
import {
  handedOverThumbnail,
  useAuthorisedImageSrc,
  useViewerData,
} from '../../features/viewer/hooks/use-viewer-data'
import { attachToOpinion, decodeMeasureParam, type MeasureParam } from '../../features/viewer/pin'

interface Target {
  seriesUid?: string
  sop?: string
  frame?: number
  /** What the opener handed over (only for the series it opened). */
  studyUid?: string
  thumb?: string
}

// The viewer's own black stage, before ImageViewer (and its stylesheet) has mounted.
const HANDOFF_STAGE = {
  position: 'fixed',
  inset: 0,
  background: '#000',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
} as const

/** Runs `run` once the frame now being prepared has been painted (two animation frames later). */
function afterNextPaint(run: () => void): void {
  const frame =
    typeof requestAnimationFrame === 'function'
      ? requestAnimationFrame
      : (callback: () => void) => setTimeout(callback, 16)
  frame(() => frame(run))
}

function positive(value: string | undefined): number | undefined {
  const n = Number(value)
  return Number.isInteger(n) && n >= 1 ? n : undefined
}

function ViewerContent({
  examId,
  initial,
  tapAt,
  grantId,
  measure,
  pinField,
}: {
  examId: string
  initial: Target
  tapAt?: number
  /** Opened through a grant (issue 9): the exam from getSharedExam, frames with its token. */
  grantId?: string
  /** Show mode (issue 23): drawn on the asked slice (only there). */
  measure?: MeasureParam | null
  /** Pin mode (issue 23): the opinion sentence 附到意见 attaches to. */
  pinField?: string
}) {
  const [target, setTarget] = useState<Target>(initial)
  const [attempt, setAttempt] = useState(0)
  const [cache] = useState(createFrameCache)
  // From the tap when the opener said when it was (H5, same document), else from this page's start.
  const pageStart = useRef(timelineNow())
  const firstPixelsFrom = useMemo(() => tapOnTimeline(tapAt) ?? pageStart.current, [tapAt])
  const loadExam = useMemo(() => (grantId ? sharedExamLoader(grantId) : undefined), [grantId])
  const data = useViewerData({ examId, ...target }, attempt, loadExam)
  // Progressive: the opener's thumbnail (already here, shared with the page below), then the
  // server's full rendering, then ImageViewer's raw frames.
  const thumbSrc = useAuthorisedImageSrc(handedOverThumbnail({ examId, ...target }))
  const renderedSrc = useAuthorisedImageSrc(data.status === 'error' ? null : data.previewPath)
  const previewSrc = renderedSrc ?? thumbSrc
  // The first commit is only the preview: ImageViewer (tools, canvas, NutUI) mounts once the preview
  // has painted (or failed), or at once when there is none; once mounted it stays (a preview arriving
  // later, e.g. a cold open's full rendering, is ImageViewer's to show).
  const [previewSettled, setPreviewSettled] = useState(false)
  const [viewerMounted, setViewerMounted] = useState(false)
  if (!viewerMounted && data.status === 'ready' && (previewSettled || previewSrc === null)) {
    setViewerMounted(true)
  }
  const settle = () => afterNextPaint(() => setPreviewSettled(true))

  if (data.status === 'error') {
    return (
      <PageState status="error" message={data.message} onRetry={() => setAttempt((n) => n + 1)} />
    )
  }
  if (data.status === 'loading' || !viewerMounted) {
    if (!previewSrc) return <PageState status="loading" />
    return (
      <View style={HANDOFF_STAGE}>
        <Image
          src={previewSrc}
          mode="aspectFit"
          style={{ width: '100%', height: '100%' }}
          onLoad={() => {
            recordFirstPixels(firstPixelsFrom)
            settle()
          }}
          onError={settle}
        />
      </View>
    )
  }
  // The measurement belongs to the asked image: not drawn on another (a stale link, another series).
  const start = data.slices[data.startIndex]!
  const onAskedSlice =
    target.sop === start.info.sopInstanceUid && (target.frame ?? 1) === start.frame
  const { studyUid, series } = data
  const attach = pinField
    ? (shown: ShownView) =>
        attachToOpinion({
          ...shown,
          fieldId: pinField,
          examId,
          studyUid,
          seriesUid: series.seriesUid,
        })
    : undefined
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
      bookmarks={!grantId}
      shown={onAskedSlice ? measure : null}
      {...(attach ? { onAttach: attach } : {})}
      // Another series: the handed-over study and thumbnail were this one's, so they go.
      onSwitchSeries={(seriesUid, sop, frame) => setTarget({ seriesUid, sop, frame })}
    />
  )
}

/** 影像查看: the DICOM viewer of one exam's series (issue 8; not in SPEC's route table). */
export default function ImageViewerPage() {
  const { examId, seriesUid, sop, frame, t, studyUid, thumb, grantId, measure, pin } = useParams()
  // Decoded once: a new object each render would be a new measurement, reset on every render.
  const shown = useMemo(() => decodeMeasureParam(measure), [measure])
  const content = examId ? (
    <ViewerContent
      examId={examId}
      initial={{
        ...(seriesUid ? { seriesUid } : {}),
        ...(sop ? { sop } : {}),
        ...(positive(frame) ? { frame: positive(frame) } : {}),
        ...(studyUid ? { studyUid } : {}),
        ...(thumb ? { thumb } : {}),
      }}
      tapAt={positive(t)}
      {...(grantId ? { grantId } : {})}
      measure={shown}
      {...(pin ? { pinField: pin } : {})}
    />
  ) : (
    <PageState status="empty" message="缺少检查编号，请从影像详情进入" />
  )
  // Through a grant no sign-in is asked: a link visitor has none, the grant's token is the key.
  if (grantId) return <SharedViewerFrame grantId={grantId}>{content}</SharedViewerFrame>
  return <RequireLogin text="登录后才能查看影像">{content}</RequireLogin>
}
