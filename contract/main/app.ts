import { z } from 'zod/mini'
import { defineEndpoint } from '../endpoint'

export { SOFTWARE_NAMES } from '../software'

/** softwareName identifies which product's policy is meant (the weapp, the H5 app, a native app). */
export const SoftwareNameSchema = z
  .string({
    error: (issue) => (issue.input === undefined ? '缺少 softwareName' : 'softwareName 格式不正确'),
  })
  .check(
    z.minLength(1, '缺少 softwareName'),
    z.maxLength(64, 'softwareName 过长'),
    z.regex(/^[A-Za-z0-9_.-]+$/, 'softwareName 只能包含字母、数字、下划线、点和横线'),
  )

export const PolicyVersionSchema = z.object({
  softwareName: z.string(),
  /** Opaque version string; the app asks for consent again whenever it differs from the stored one. */
  version: z.string(),
  updatedAt: z.string(),
})
export type PolicyVersion = z.infer<typeof PolicyVersionSchema>

export const getPolicyVersion = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/app/version',
  input: z.object({ softwareName: SoftwareNameSchema }),
  output: PolicyVersionSchema,
  auth: false,
  summary: '隐私政策版本（按 softwareName）',
})

export const AGREEMENT_KINDS = ['privacy', 'user', 'expert'] as const
export const AgreementKindSchema = z.enum(AGREEMENT_KINDS, {
  error: '协议类型不存在，可选：privacy（隐私政策）、user（用户协议）、expert（专家协议）',
})
export type AgreementKind = z.infer<typeof AgreementKindSchema>

export const AgreementSchema = z.object({
  kind: AgreementKindSchema,
  title: z.string(),
  version: z.string(),
  /** Plain text with blank-line separated paragraphs; the app renders it without HTML. */
  content: z.string(),
  updatedAt: z.string(),
})
export type Agreement = z.infer<typeof AgreementSchema>

export const getAgreement = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/app/agreements/:kind',
  input: z.object({ kind: AgreementKindSchema, softwareName: z.optional(SoftwareNameSchema) }),
  output: AgreementSchema,
  auth: false,
  summary: '协议与隐私政策全文',
})
