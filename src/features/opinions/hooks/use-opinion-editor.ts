import { useCallback, useEffect, useRef, useState } from 'react'
import Taro from '@tarojs/taro'
import {
  type AiDraft,
  type FieldValue,
  type ImagePin,
  type OpinionValues,
  type ReportTemplate,
  templateDefaults,
} from '@contract/main/opinions'
import type { ReauthProof } from '@/components/reauth-sheet'
import { showToast } from '@/platform/ui'
import { getExpertAiDrafts } from '@/services/ai'
import { describeError } from '@/services/api'
import { sendOwnCode } from '@/services/auth'
import {
  getOpinionWorkspace,
  listReportTemplates,
  type OpinionBody,
  type OpinionWorkspace,
  saveOpinionDraft,
  saveTemplateVariant,
  type SignedOpinion,
  signOpinion,
} from '@/services/opinions'
import { guid } from '@/utils/guid'
import { OPINION_TEXTS as T } from '../texts'

/** Saved this long after the last keystroke (a slow network still gets every change, in order). */
export const DRAFT_SAVE_DELAY_MS = 800

export type SaveState = 'idle' | 'saving' | 'saved' | 'failed'

export interface EditorDraft {
  template: ReportTemplate
  values: OpinionValues
  pins: ImagePin[]
  aiFields: Record<string, string>
}

/** Where the AI drafts come from (the AI service's call: only this consultation's expert gets them). */
export type AiDraftLoader = (consultationId: string) => Promise<AiDraft[]>

/**
 * 撰写会诊报告: the consultation, the templates, the draft (restored from the server, saved as the
 * expert types), pins, AI drafts, and the signature. `signed` once it is signed (the page then
 * shows the opinion as the patient reads it).
 */
export function useOpinionEditor(
  consultationId: string,
  loadAiDrafts: AiDraftLoader = getExpertAiDrafts,
) {
  const [status, setStatus] = useState<'loading' | 'error' | 'ready'>('loading')
  const [error, setError] = useState<string | null>(null)
  const [space, setSpace] = useState<OpinionWorkspace | null>(null)
  const [templates, setTemplates] = useState<ReportTemplate[]>([])
  const [aiDrafts, setAiDrafts] = useState<AiDraft[]>([])
  const [draft, setDraft] = useState<EditorDraft | null>(null)
  const [save, setSave] = useState<SaveState>('idle')
  const [signed, setSigned] = useState<SignedOpinion | null>(null)
  const [signing, setSigning] = useState(false)
  const [busy, setBusy] = useState(false)
  const [signError, setSignError] = useState<string | null>(null)
  const clientId = useRef<string | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const latest = useRef<EditorDraft | null>(null)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    let live = true
    setStatus('loading')
    Promise.all([
      getOpinionWorkspace(consultationId),
      listReportTemplates(),
      loadAiDrafts(consultationId).catch(() => []),
    ])
      .then(([loaded, list, drafts]) => {
        if (!live) return
        setSpace(loaded)
        setTemplates(list)
        setAiDrafts(drafts)
        setSigned(loaded.signed)
        const saved = loaded.draft
        const template =
          saved &&
          (list.find((one) => one.variant?.id === saved.variantId && one.id === saved.templateId) ??
            list.find((one) => one.id === saved.templateId && !one.variant))
        if (saved && template) {
          const restored = {
            template,
            values: saved.values,
            pins: saved.pins,
            aiFields: saved.aiFields,
          }
          latest.current = restored
          setDraft(restored)
          setSave('saved')
        }
        setStatus('ready')
      })
      .catch((cause: unknown) => {
        if (!live) return
        setError(describeError(cause, '加载失败，请稍后重试'))
        setStatus('error')
      })
    return () => {
      live = false
    }
  }, [consultationId, loadAiDrafts, attempt])

  const bodyOf = useCallback(
    (next: EditorDraft): OpinionBody => ({
      consultationId,
      templateId: next.template.id,
      variantId: next.template.variant?.id ?? null,
      values: next.values,
      pins: next.pins,
      aiFields: next.aiFields,
    }),
    [consultationId],
  )

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current)
    timer.current = null
    const current = latest.current
    if (!current) return
    setSave('saving')
    try {
      await saveOpinionDraft(bodyOf(current))
      // A newer change made while this one was on its way is saved by its own timer.
      if (latest.current === current) setSave('saved')
    } catch {
      setSave('failed')
    }
  }, [bodyOf])

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
    },
    [],
  )

  const change = useCallback(
    (next: EditorDraft) => {
      latest.current = next
      setDraft(next)
      setSave('saving')
      if (timer.current) clearTimeout(timer.current)
      timer.current = setTimeout(() => void flush(), DRAFT_SAVE_DELAY_MS)
    },
    [flush],
  )

  const chooseTemplate = (template: ReportTemplate) =>
    change({ template, values: templateDefaults(template), pins: [], aiFields: {} })

  const setValue = (fieldId: string, value: FieldValue) => {
    if (!latest.current) return
    change({ ...latest.current, values: { ...latest.current.values, [fieldId]: value } })
  }

  const addPin = (pin: ImagePin) => {
    if (!latest.current) return
    const pins = [...latest.current.pins.filter((one) => one.id !== pin.id), pin]
    change({ ...latest.current, pins })
  }

  const removePin = (pinId: string) => {
    if (!latest.current) return
    change({ ...latest.current, pins: latest.current.pins.filter((one) => one.id !== pinId) })
  }

  /** The AI draft's text into the fields it names (the expert reviews each before signing). */
  const applyAiDraft = (ai: AiDraft) => {
    const current = latest.current
    if (!current) return
    const template =
      current.template.id === ai.templateId
        ? current.template
        : (templates.find((one) => one.id === ai.templateId && !one.variant) ?? null)
    if (!template) return
    const base =
      template === current.template
        ? current
        : { template, values: templateDefaults(template), pins: [], aiFields: {} }
    const values = { ...base.values, ...ai.values }
    const aiFields = { ...base.aiFields }
    for (const fieldId of Object.keys(ai.values)) aiFields[fieldId] = ai.analysisId
    change({ ...base, values, aiFields })
    showToast(T.aiApplied)
  }

  const saveVariant = async (name: string): Promise<boolean> => {
    const current = latest.current
    if (!current) return false
    try {
      const variant = await saveTemplateVariant(current.template.id, name, current.values)
      setTemplates((list) => [
        ...list.filter((one) => one.variant?.id !== variant.variant?.id),
        variant,
      ])
      showToast(T.variantSaved)
      return true
    } catch (cause) {
      showToast(describeError(cause, '保存失败，请稍后重试'))
      return false
    }
  }

  const sign = async (proof: ReauthProof): Promise<boolean> => {
    const current = latest.current
    if (!current) return false
    if (timer.current) clearTimeout(timer.current)
    clientId.current ??= `o${guid(23, false)}`
    setBusy(true)
    setSignError(null)
    try {
      const opinion = await signOpinion({
        ...bodyOf(current),
        clientId: clientId.current,
        ...proof,
      })
      setSigned(opinion)
      setSigning(false)
      showToast(T.signed)
      // The page becomes the signed opinion: read from its top.
      void Taro.pageScrollTo({ scrollTop: 0, duration: 0 }).catch(() => undefined)
      return true
    } catch (cause) {
      setSignError(describeError(cause, '签署失败，请重试'))
      return false
    } finally {
      setBusy(false)
    }
  }

  return {
    status,
    error,
    retry: () => setAttempt((n) => n + 1),
    space,
    templates,
    aiDrafts,
    draft,
    save,
    signed,
    chooseTemplate,
    setValue,
    addPin,
    removePin,
    applyAiDraft,
    saveVariant,
    saveNow: flush,
    signing,
    openSign: () => {
      setSignError(null)
      setSigning(true)
    },
    closeSign: () => setSigning(false),
    sign,
    busy,
    signError,
    sendCode: () => sendOwnCode('verify-old', { loading: false }),
  }
}

export type OpinionEditor = ReturnType<typeof useOpinionEditor>
