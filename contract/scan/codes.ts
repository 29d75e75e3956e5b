import { z } from 'zod/mini'
import { defineEndpoint } from '../endpoint'
import { HospitalRefSchema } from '../hospitals'

/*
 * The scan service (SPEC section 7: scan QR code, report info, report count, room list).
 *
 * A hospital prints a film-bag code for one of its exams (issueFilmCode, with its API key). The code
 * is signed, so it cannot be guessed or altered; it travels as a link to the report page
 * (`<origin>/pages/personalReport/detail2?code=…`), so a phone's camera opens it as well as the
 * app's scanner. Holding the code shows who issued it and what kind of exam it is, never the report:
 * the report opens after the same SMS proof as 影像查询 (contract/main/claims.ts), which also adds the
 * exam to the account.
 */

/** Query parameter of the film-bag link that carries the code. */
export const FILM_CODE_PARAM = 'code'

export const FilmCodeSchema = z
  .string({ error: '二维码无效' })
  .check(
    z.minLength(10, '二维码无效'),
    z.maxLength(300, '二维码无效'),
    z.regex(/^[\w.-]+$/, '二维码无效'),
  )

/** A hospital asks for the code of one of its exams, by StudyInstanceUID or by 检查号. */
export const issueFilmCode = defineEndpoint({
  service: 'scan',
  method: 'POST',
  path: '/film-codes',
  input: z.object({
    studyInstanceUid: z.optional(
      z.string().check(z.regex(/^[0-9.]{1,64}$/, 'StudyInstanceUID 格式不正确')),
    ),
    accessionNumber: z.optional(
      z.string().check(z.minLength(1), z.maxLength(64, '检查号最多 64 位')),
    ),
  }),
  output: z.object({
    /** The signed code. */
    code: z.string(),
    /** What to print as the QR code: the report page with the code. */
    url: z.string(),
    studyInstanceUid: z.nullable(z.string()),
    accessionNumber: z.nullable(z.string()),
  }),
  // A hospital API key (Authorization: Bearer yxh_…), not a user's token.
  auth: false,
  summary: '医院：获取某次检查的胶片袋二维码（需医院 API 密钥）',
})

/** What holding a film-bag code shows: who issued it and what it is, no personal content. */
export const FilmExamSchema = z.object({
  hospital: HospitalRefSchema,
  /** YYYY-MM-DD */
  studyDate: z.nullable(z.string()),
  modalities: z.array(z.string()),
  title: z.string(),
  /** 张* */
  patientNameMasked: z.nullable(z.string()),
  /** Whether the hospital has sent the report yet, and its status label (正式报告 …). */
  hasReport: z.boolean(),
  reportStatusLabel: z.nullable(z.string()),
})
export type FilmExam = z.infer<typeof FilmExamSchema>

export const ScanResultSchema = z.object({
  code: z.string(),
  exam: FilmExamSchema,
  /** The exam is already the caller's: open it (reportId when there is a report). */
  mine: z.boolean(),
  examId: z.nullable(z.string()),
  reportId: z.nullable(z.string()),
  /**
   * Not mine yet: a claim ticket for sendClaimCode / confirmClaim, and where the code goes. Null
   * when mine, or when the hospital recorded no phone (claimable only by binding the ID card).
   */
  ticket: z.nullable(z.string()),
  mobileMasked: z.nullable(z.string()),
})
export type ScanResult = z.infer<typeof ScanResultSchema>

export const scanQrCode = defineEndpoint({
  service: 'scan',
  method: 'POST',
  path: '/qr-code',
  input: z.object({
    /** The scanned text: the film-bag link or the bare code. */
    content: z
      .string({ error: '二维码无效' })
      .check(z.trim(), z.minLength(1, '二维码无效'), z.maxLength(1000, '二维码无效')),
  }),
  output: ScanResultSchema,
  auth: true,
  summary: '扫描胶片袋二维码：开具医院、检查概况，以及领取所需的验证凭证',
})

export const getScanReportInfo = defineEndpoint({
  service: 'scan',
  method: 'GET',
  path: '/report',
  input: z.object({ code: FilmCodeSchema }),
  output: ScanResultSchema,
  auth: true,
  summary: '胶片袋二维码对应的报告信息（领取后可查看报告）',
})

export const getScanReportCount = defineEndpoint({
  service: 'scan',
  method: 'GET',
  path: '/report/count',
  input: z.object({ code: FilmCodeSchema }),
  /** Reports the hospital sent for the coded exam (0 while it is being written), and final ones. */
  output: z.object({ total: z.number(), final: z.number() }),
  auth: true,
  summary: '胶片袋二维码对应的报告数量',
})

export const listScanRooms = defineEndpoint({
  service: 'scan',
  method: 'GET',
  path: '/rooms',
  input: z.object({
    /** The hospital, or a film-bag code naming it. */
    hospitalId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    code: z.optional(FilmCodeSchema),
  }),
  output: z.array(z.object({ id: z.string(), name: z.string() })),
  auth: false,
  summary: '医院科室列表（按医院或胶片袋二维码）',
})

/** A hospital terminal reads a patient's 5-minute exam QR code (EXAM_QR_PREFIX…). */
export const resolveExamQrCode = defineEndpoint({
  service: 'scan',
  method: 'POST',
  path: '/exam-codes/resolve',
  input: z.object({
    content: z
      .string({ error: '二维码无效' })
      .check(z.trim(), z.minLength(1, '二维码无效'), z.maxLength(1000, '二维码无效')),
  }),
  output: z.object({
    /** Whether the exam is this hospital's own (only then the identifiers follow). */
    ownExam: z.boolean(),
    studyInstanceUid: z.nullable(z.string()),
    accessionNumber: z.nullable(z.string()),
    hospital: HospitalRefSchema,
    studyDate: z.nullable(z.string()),
    modalities: z.array(z.string()),
    expiresAt: z.string(),
  }),
  auth: false,
  summary: '医院终端：读取患者出示的检查二维码（5 分钟有效，需医院 API 密钥）',
})
