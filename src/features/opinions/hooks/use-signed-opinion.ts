import { useEffect, useState } from 'react'
import { openDocument } from '@/platform/open-document'
import { saveDownloadedFile } from '@/platform/save-file'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import { downloadOpinionPdf, getOpinion, type SignedOpinion } from '@/services/opinions'
import { OPINION_TEXTS as T } from '../texts'

/** A signed opinion by id (the patient's 会诊报告), and its PDF. */
export function useSignedOpinion(opinionId: string) {
  const [opinion, setOpinion] = useState<SignedOpinion | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    setError(null)
    getOpinion(opinionId)
      .then((found) => live && setOpinion(found))
      .catch((cause: unknown) => live && setError(describeError(cause, '加载失败，请稍后重试')))
    return () => {
      live = false
    }
  }, [opinionId, attempt])
  return { opinion, error, retry: () => setAttempt((n) => n + 1) }
}

/** 保存 PDF: H5 downloads it under a name; the mini-program opens it (转发, 保存 from its menu). */
export function useOpinionPdf() {
  const [busy, setBusy] = useState(false)
  const save = async (opinion: SignedOpinion) => {
    setBusy(true)
    try {
      const file = await downloadOpinionPdf(opinion.id)
      const name = `会诊报告-${opinion.verifyCode}.pdf`
      if (saveDownloadedFile(file, name)) showToast(T.pdfSaved)
      else await openDocument(file, 'pdf')
    } catch (cause) {
      showToast(describeError(cause, 'PDF 生成失败，请稍后重试'))
    } finally {
      setBusy(false)
    }
  }
  return { busy, save }
}
