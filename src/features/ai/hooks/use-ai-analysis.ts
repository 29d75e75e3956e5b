import { useCallback, useEffect, useState } from 'react'
import { useResource, type Resource } from '@/hooks/use-resource'
import { applyAiAnalysis, getAiAnalysis, type AiAnalysisView } from '@/services/ai'

/** While a request is queued or running, its state is asked again this often. */
export const AI_POLL_MS = 4000

export interface AiAnalysisModel {
  view: Resource<AiAnalysisView>
  /** A request is being sent. */
  applying: boolean
  /** Sends 申请AI分析; the wrapper toasts a refusal, the state on screen follows the answer. */
  apply: () => Promise<void>
}

/** The AI analysis of one exam: its state (asked again while it runs) and the request. */
export function useAiAnalysis(examId: string): AiAnalysisModel {
  const view = useResource(examId, () => getAiAnalysis(examId), {
    errorMessage: 'AI 分析状态加载失败',
  })
  const [applying, setApplying] = useState(false)
  const data = view.status === 'ready' ? view.data : null
  const { reload, replace } = view

  // Each answer (a new `data`) sets the next ask while the request is still on its way.
  useEffect(() => {
    const state = data?.analysis?.state
    if (state !== 'queued' && state !== 'running') return undefined
    const timer = setTimeout(() => void reload(), AI_POLL_MS)
    return () => clearTimeout(timer)
  }, [data, reload])

  const apply = useCallback(async () => {
    setApplying(true)
    try {
      const analysis = await applyAiAnalysis(examId)
      replace((current) => ({ ...current, analysis }))
    } catch {
      // Refused (shown by the wrapper's toast): what the server now says is on screen after a reload.
      await reload()
    } finally {
      setApplying(false)
    }
  }, [examId, reload, replace])

  return { view, applying, apply }
}
