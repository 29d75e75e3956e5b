import { useState } from 'react'
import { Button } from '@nutui/nutui-react-taro'
import { View } from '@tarojs/components'
import { useParams } from '@/hooks/use-params'
import { showToast } from '@/platform/ui'
import type { ImagePin } from '@contract/main/opinions'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { ConsultNotice } from '../../features/consultations/shared/consult-parts'
import { ExamChooser, OpinionEditorView } from '../../features/opinions/components/opinion-editor'
import { OpinionView } from '../../features/opinions/components/opinion-view'
import { VerifyView } from '../../features/opinions/components/verify-view'
import { useOpinionEditor } from '../../features/opinions/hooks/use-opinion-editor'
import { useOpinionPdf, useSignedOpinion } from '../../features/opinions/hooks/use-signed-opinion'
import { OPINION_TEXTS as T } from '../../features/opinions/texts'
import { onPinHandedOver, pinViewerParams } from '../../features/viewer/pin-protocol'
import { navigate } from '../../services/navigate'

/**
 * Opens the viewer on a pinned slice with its measurement drawn (the viewer's show mode): the
 * patient on their own exam, the expert through the consultation's grant.
 */
function openPinnedImage(pin: ImagePin, grantId?: string): void {
  void navigate('imageViewer', { ...pinViewerParams(pin), ...(grantId ? { grantId } : {}) })
}

/**
 * 附图: the viewer in pin mode for one field, through the grant; it hands the pin back as it closes
 * (附到意见), once.
 */
function pickPinInViewer(
  target: { examId: string; fieldId: string; grantId: string },
  onPin: (pin: ImagePin) => void,
): void {
  const stop = onPinHandedOver((pin) => {
    stop()
    onPin(pin)
  })
  void navigate('imageViewer', {
    examId: target.examId,
    grantId: target.grantId,
    pin: target.fieldId,
  })
}

/** The expert's side: write the 影像会诊's opinion from a template, or read it once signed. */
function WriteContent({ consultationId }: { consultationId: string }) {
  const editor = useOpinionEditor(consultationId)
  const pdf = useOpinionPdf()
  const [pinField, setPinField] = useState<string | null>(null)
  if (editor.status === 'loading') return <PageState status="loading" />
  if (editor.status === 'error' || !editor.space)
    return <PageState status="error" message={editor.error ?? undefined} onRetry={editor.retry} />
  const space = editor.space
  const openPin = (pin: Parameters<typeof openPinnedImage>[0]) =>
    openPinnedImage(pin, space.grantId)
  if (editor.signed) {
    const signed = editor.signed
    return (
      <View className="report-page">
        <OpinionView
          opinion={signed}
          onOpenPin={openPin}
          onPdf={() => void pdf.save(signed)}
          pdfBusy={pdf.busy}
        />
        <View className="opinion-page__back">
          <Button block onClick={() => void navigate('myMessageDetail', { consultationId })}>
            {T.conversation}
          </Button>
        </View>
      </View>
    )
  }
  if (space.blocked) return <PageState status="empty" message={space.blocked} />
  const pinFrom = (examId: string, fieldId: string) =>
    pickPinInViewer({ examId, fieldId, grantId: space.grantId }, editor.addPin)
  return (
    <View className="report-page">
      <ConsultNotice />
      <OpinionEditorView
        editor={editor}
        onOpenPin={openPin}
        onPin={(fieldId) => {
          if (space.exams.length === 0) return showToast(T.noExams)
          if (space.exams.length === 1) return pinFrom(space.exams[0]!.examId, fieldId)
          setPinField(fieldId)
        }}
      />
      <ExamChooser
        exams={space.exams}
        visible={pinField !== null}
        onClose={() => setPinField(null)}
        onChoose={(examId) => pinField && pinFrom(examId, pinField)}
      />
    </View>
  )
}

/** The patient's (or the signing expert's) signed opinion, by id. */
function ReadContent({ id }: { id: string }) {
  const { opinion, error, retry } = useSignedOpinion(id)
  const pdf = useOpinionPdf()
  if (error) return <PageState status="error" message={error} onRetry={retry} />
  if (!opinion) return <PageState status="loading" />
  return (
    <View className="report-page">
      <OpinionView
        opinion={opinion}
        onOpenPin={(pin) => openPinnedImage(pin)}
        onPdf={() => void pdf.save(opinion)}
        pdfBusy={pdf.busy}
      />
    </View>
  )
}

/**
 * 会诊报告 (`/pages/report/report`): `consultationId` the expert writes (or reads) that
 * consultation's opinion; `id` a signed opinion for its patient; `verify` (or nothing) checks a
 * PDF's code, without login.
 */
export default function ReportPage() {
  const { consultationId, id, verify } = useParams()
  if (consultationId) {
    return (
      <RequireLogin text="登录后撰写会诊报告">
        <WriteContent consultationId={consultationId} />
      </RequireLogin>
    )
  }
  if (id) {
    return (
      <RequireLogin text="登录后查看会诊报告">
        <ReadContent id={id} />
      </RequireLogin>
    )
  }
  return <VerifyView initialCode={verify} />
}
