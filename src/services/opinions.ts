import {
  getOpinion as getOpinionEndpoint,
  getOpinionWorkspace as getOpinionWorkspaceEndpoint,
  OPINION_PDF_PATH,
  saveOpinionDraft as saveOpinionDraftEndpoint,
  signOpinion as signOpinionEndpoint,
  verifyOpinion as verifyOpinionEndpoint,
  type ImagePin,
  type OpinionDraft,
  type OpinionValues,
  type ReportTemplate,
  type SignedOpinion,
} from '@contract/main/opinions'
import {
  deleteTemplateVariant as deleteTemplateVariantEndpoint,
  listReportTemplates as listReportTemplatesEndpoint,
  saveTemplateVariant as saveTemplateVariantEndpoint,
} from '@contract/report-model/templates'
import type { OutputOf } from '@contract/endpoint'
import { callEndpoint, type CallOptions } from './api'
import { http } from './http'
import { hostOf } from './hosts'

/** 会诊报告: templates, the expert's draft and signature, the signed opinion (contract/main/opinions.ts). */

export type OpinionWorkspace = OutputOf<typeof getOpinionWorkspaceEndpoint>
export type OpinionVerification = OutputOf<typeof verifyOpinionEndpoint>
export type { ImagePin, OpinionDraft, OpinionValues, ReportTemplate, SignedOpinion }

export interface OpinionBody {
  consultationId: string
  templateId: string
  variantId: string | null
  values: OpinionValues
  pins: ImagePin[]
  aiFields: Record<string, string>
}

// The report page draws its own loading state.
const QUIET: CallOptions = { loading: false }

export async function listReportTemplates(): Promise<ReportTemplate[]> {
  return (await callEndpoint(listReportTemplatesEndpoint, {}, QUIET)).templates
}

export function saveTemplateVariant(
  templateId: string,
  name: string,
  values: OpinionValues,
): Promise<ReportTemplate> {
  return callEndpoint(saveTemplateVariantEndpoint, { templateId, name, values })
}

export async function deleteTemplateVariant(variantId: string): Promise<void> {
  await callEndpoint(deleteTemplateVariantEndpoint, { variantId })
}

export function getOpinionWorkspace(consultationId: string): Promise<OpinionWorkspace> {
  return callEndpoint(getOpinionWorkspaceEndpoint, { consultationId }, QUIET)
}

/** Saved as the expert types: quiet (no loading, no toast); the page says 已保存 or 未保存. */
export function saveOpinionDraft(body: OpinionBody): Promise<OpinionDraft> {
  return callEndpoint(saveOpinionDraftEndpoint, body, QUIET)
}

export function signOpinion(
  body: OpinionBody & { clientId: string; password?: string; smsCode?: string },
): Promise<SignedOpinion> {
  return callEndpoint(signOpinionEndpoint, body, QUIET)
}

export function getOpinion(opinionId: string): Promise<SignedOpinion> {
  return callEndpoint(getOpinionEndpoint, { opinionId }, QUIET)
}

export function verifyOpinion(code: string): Promise<OpinionVerification> {
  return callEndpoint(verifyOpinionEndpoint, { code }, QUIET)
}

/** The signed opinion's PDF, fetched with the login's token: a temp file (weapp) or blob: URL (H5). */
export async function downloadOpinionPdf(opinionId: string): Promise<string> {
  const file = await http.download({
    baseUrl: hostOf('main'),
    url: OPINION_PDF_PATH(opinionId),
    header: { Accept: 'application/pdf' },
  })
  return file.tempFilePath
}
