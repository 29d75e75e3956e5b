import { useRef, useState } from 'react'
import {
  type ExamContrast,
  ExamRequestFormSchema,
  type ExamType,
  type ExamUrgency,
} from '@contract/main/exam-requests'
import { describeError } from '@/services/api'
import { createExamRequest, type ExamRequest } from '@/services/exam-requests'
import { newClientId } from '../../conversation/hooks/use-consult-conversation'

export interface ExamRequestDraft {
  examType: ExamType | null
  examName: string
  bodyPart: string
  contrast: ExamContrast | null
  urgency: ExamUrgency
  reason: string
}

const EMPTY: ExamRequestDraft = {
  examType: null,
  examName: '',
  bodyPart: '',
  contrast: null,
  urgency: 'routine',
  reason: '',
}

/**
 * The expert's 开检查建议 form: checked with the contract's schema (its words) before the server
 * checks it again; a send that was lost is retried with the same clientId (one request).
 */
export function useExamRequestCompose(
  consultationId: string,
  onSent: (request: ExamRequest) => void,
) {
  const [draft, setDraft] = useState<ExamRequestDraft>(EMPTY)
  const [error, setError] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const busy = useRef(false)
  const clientId = useRef<string | null>(null)

  const set = <K extends keyof ExamRequestDraft>(key: K, value: ExamRequestDraft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }))
    setError(null)
  }

  const send = async () => {
    if (busy.current) return
    const checked = ExamRequestFormSchema.safeParse({
      examType: draft.examType ?? undefined,
      examName: draft.examType === 'other' ? draft.examName : undefined,
      bodyPart: draft.bodyPart,
      contrast: draft.contrast ?? undefined,
      urgency: draft.urgency,
      reason: draft.reason,
    })
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? '请检查填写的内容')
      return
    }
    busy.current = true
    setSending(true)
    clientId.current ??= newClientId()
    try {
      const request = await createExamRequest({
        ...checked.data,
        consultationId,
        clientId: clientId.current,
      })
      clientId.current = null
      onSent(request)
    } catch (cause) {
      setError(describeError(cause, '发送失败，请重试'))
    } finally {
      busy.current = false
      setSending(false)
    }
  }

  return { draft, set, error, sending, send }
}

export type ExamRequestCompose = ReturnType<typeof useExamRequestCompose>
