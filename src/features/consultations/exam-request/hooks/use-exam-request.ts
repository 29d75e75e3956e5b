import { useEffect, useState } from 'react'
import { describeError } from '@/services/api'
import { type ExamRequest, getExamRequest } from '@/services/exam-requests'

/** One 检查申请单 by id, for the consultation's patient or its expert. */
export function useExamRequest(examRequestId: string) {
  const [request, setRequest] = useState<ExamRequest | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    setError(null)
    getExamRequest(examRequestId)
      .then((found) => live && setRequest(found))
      .catch((cause: unknown) => live && setError(describeError(cause, '加载失败，请稍后重试')))
    return () => {
      live = false
    }
  }, [examRequestId, attempt])
  return { request, error, retry: () => setAttempt((n) => n + 1) }
}
