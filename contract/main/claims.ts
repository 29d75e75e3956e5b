import { z } from 'zod/mini'
import { SmsCodeSchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { HospitalRefSchema } from '../hospitals'

/*
 * 影像查询 and claims (issue 7). A patient without a bound ID card adds a hospital exam to the account
 * by proving the phone the hospital recorded for it:
 *
 *   lookupExamClaim (hospital + 检查号 + 姓名) ─┐
 *   scanQrCode (contract/scan/codes.ts) ───────┴→ a claim ticket + the masked phone
 *   → sendClaimCode (an SMS code to that phone) → confirmClaim (the code) → the exam is mine
 *
 * A lookup that matches nothing answers one message whatever did not match (no such number, another
 * name, no phone recorded), so it never tells a stranger more than the flow needs; failed lookups are
 * limited per account, per network and per exam number. The ticket is sealed and bound to the
 * account that asked, so it is useless to anyone else.
 */

/** The one answer of a lookup that did not match, whatever the reason. */
export const CLAIM_NOT_FOUND = '未找到匹配的检查，请核对医院、检查号和姓名'

/** Claim tickets stay usable this long (time to read the SMS and type the code). */
export const CLAIM_TICKET_TTL_SECONDS = 30 * 60

const TicketSchema = z
  .string({ error: '请重新查询' })
  .check(z.minLength(1, '请重新查询'), z.maxLength(1000, '请重新查询'))

export const ClaimStartSchema = z.object({
  /** Sealed, bound to this account; hand it to sendClaimCode and confirmClaim. */
  ticket: z.string(),
  /** 138****8000: where the code will go. */
  mobileMasked: z.string(),
  /**
   * The exam is already in this account (claimed before, or matched by the bound ID card): no code
   * is needed, examId says which.
   */
  alreadyMine: z.boolean(),
  examId: z.nullable(z.string()),
})
export type ClaimStart = z.infer<typeof ClaimStartSchema>

export const lookupExamClaim = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/claims/lookup',
  input: z.object({
    hospitalId: z
      .string({ error: '请选择医院' })
      .check(z.minLength(1, '请选择医院'), z.maxLength(64, '请选择医院')),
    /** 检查号 (DICOM AccessionNumber) as printed on the slip. */
    examNumber: z
      .string({ error: '请输入检查号' })
      .check(
        z.trim(),
        z.minLength(1, '请输入检查号'),
        z.maxLength(64, '检查号最多 64 位'),
        z.regex(/^[\w\-./]+$/, '检查号只包含字母、数字和 - _ . /'),
      ),
    name: z
      .string({ error: '请输入姓名' })
      .check(z.trim(), z.minLength(1, '请输入姓名'), z.maxLength(50, '姓名最多 50 个字')),
  }),
  output: ClaimStartSchema,
  auth: true,
  summary: '影像查询：按医院、检查号和姓名查找检查，返回医院登记手机号（打码）',
})

export const sendClaimCode = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/claims/code',
  input: z.object({ ticket: TicketSchema }),
  output: z.object({
    mobileMasked: z.string(),
    cooldownSeconds: z.number(),
    expiresInSeconds: z.number(),
  }),
  auth: true,
  summary: '向医院登记的手机号发送领取检查的验证码',
})

export const ClaimedExamSchema = z.object({
  examId: z.string(),
  hospital: HospitalRefSchema,
  /** The exam's report, when the hospital has sent one (open it with getReportDetail). */
  reportId: z.nullable(z.string()),
  /** query: 影像查询; scan: a film-bag code. */
  via: z.enum(['query', 'scan']),
})
export type ClaimedExam = z.infer<typeof ClaimedExamSchema>

export const confirmClaim = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/claims/confirm',
  input: z.object({ ticket: TicketSchema, code: SmsCodeSchema }),
  /** Idempotent: confirming an exam already mine answers it again. */
  output: ClaimedExamSchema,
  auth: true,
  summary: '验证码正确后把检查加入我的影像和报告',
})

/** The owner's short-lived code lasts this long; the app refreshes it before it ends. */
export const EXAM_QR_TTL_SECONDS = 5 * 60

/** Prefix of a patient's exam QR code, so scanners tell it from a login or film-bag code. */
export const EXAM_QR_PREFIX = 'yingxiang-exam:'

export const issueExamQrCode = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/exams/:examId/qr-code',
  input: z.object({
    examId: z.string().check(z.minLength(1, '缺少编号'), z.maxLength(64, '编号格式不正确')),
  }),
  output: z.object({
    /** What the QR code encodes: EXAM_QR_PREFIX + a sealed, signed token. */
    content: z.string(),
    expiresAt: z.string(),
    ttlSeconds: z.number(),
  }),
  auth: true,
  summary: '检查二维码：5 分钟有效的签名码，供医院终端或医生扫码',
})
