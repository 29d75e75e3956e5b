import { z } from 'zod/mini'
import { IdSchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { AiDraftSchema, AiProviderSchema } from './opinions'

/*
 * 申请AI分析 (issue 23, "AI only as a draft"; the spec's "apply AI dicom"). The spec's "AI report
 * hospitals" is the image service's listAiHospitals (contract/image/areas.ts).
 *
 * Software that finds lesions or gives diagnostic hints is a class III medical device in China and
 * never replaces a doctor (互联网诊疗监管细则). So an analysis is never shown to the patient on its
 * own: the patient (or the family manager of the person) asks for one and reads only its state. Its
 * result is a draft (`AiDraft`, contract/main/opinions.ts) that only the expert of a consultation
 * whose grant includes the exam reads, edits and signs; the signed opinion names the provider and
 * which parts began as an AI draft.
 *
 * Without a configured provider every call says 未配置AI分析服务. In demo mode the provider is a local
 * 演示算法 (a threshold measurement of the lungs of a chest CT), labelled 演示算法，非医疗器械.
 */

export const AI_ANALYSIS_STATES = ['queued', 'running', 'done', 'failed'] as const
export type AiAnalysisState = (typeof AI_ANALYSIS_STATES)[number]

/** What the patient reads for each state (the result itself is never among them). */
export const AI_ANALYSIS_STATE_LABELS: Record<AiAnalysisState, string> = {
  queued: '已申请',
  running: '分析中',
  done: '分析完成，等待专家在会诊中审阅',
  failed: '分析失败',
}

export const AI_MESSAGES = {
  notConfigured: '未配置AI分析服务',
  /** The line under every state but failed: where the result goes, and when the patient sees it. */
  draftOnly:
    '已提交。AI 分析结果仅供专家撰写会诊意见时参考，专家审阅并签署后您才会在会诊报告中看到',
  notCt: '目前仅支持对 CT 检查申请 AI 分析',
  notReady: '影像尚未处理完成，请稍后再申请',
  failedRetry: '可重新申请',
} as const

export const AiServiceSchema = z.object({
  /** false: no AI provider is configured (未配置AI分析服务). */
  configured: z.boolean(),
  /** The provider 申请AI分析 uses; null when none is configured. */
  provider: z.nullable(AiProviderSchema),
  /** 未配置AI分析服务, or the provider's notice (演示算法，非医疗器械). */
  message: z.string(),
})
export type AiService = z.infer<typeof AiServiceSchema>

/** One request's state, as the patient sees it: never its result. */
export const AiAnalysisStatusSchema = z.object({
  id: z.string(),
  examId: z.string(),
  state: z.enum(AI_ANALYSIS_STATES),
  stateLabel: z.string(),
  /** The line for the patient: AI_MESSAGES.draftOnly, or why it failed (failed). */
  message: z.string(),
  provider: AiProviderSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type AiAnalysisStatus = z.infer<typeof AiAnalysisStatusSchema>

export const AiAnalysisViewSchema = z.object({
  service: AiServiceSchema,
  /** Whether this exam can be analysed (a CT whose images are ready); notApplicable says why not. */
  applicable: z.boolean(),
  notApplicable: z.nullable(z.string()),
  /** The latest request for this exam; null when none was made. */
  analysis: z.nullable(AiAnalysisStatusSchema),
})
export type AiAnalysisView = z.infer<typeof AiAnalysisViewSchema>

export const getAiAnalysis = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/exams/:examId/ai-analysis',
  input: z.object({ examId: IdSchema }),
  output: AiAnalysisViewSchema,
  auth: true,
  summary: 'AI 分析申请的状态（不含分析结果）',
})

export const applyAiAnalysis = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/exams/:examId/ai-analysis',
  /**
   * The owner of the exam or the family manager of its person. Idempotent: a request already
   * queued, running or done for the exam is answered again. 400 未配置AI分析服务 without a provider
   * (400 so the text reaches the person, as 未配置实名核验), 400 for an exam it cannot analyse
   * (AI_MESSAGES.notCt, notReady). The app reads getAiAnalysis first and offers nothing then.
   */
  input: z.object({ examId: IdSchema }),
  output: AiAnalysisStatusSchema,
  auth: true,
  summary: '申请AI分析（结果仅作为专家会诊意见的草稿）',
})

export const expertAiDrafts = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/expert/consultations/:consultationId/ai-drafts',
  input: z.object({ consultationId: IdSchema }),
  /**
   * Finished analyses of the exams the consultation's grant shares, newest first: drafts for the
   * expert's 影像会诊 template. Only to that consultation's expert, while the grant is active.
   */
  output: z.array(AiDraftSchema),
  auth: true,
  role: 'expert',
  summary: '会诊中可用的 AI 分析草稿（仅该会诊的专家）',
})
