import { z } from 'zod/mini'
import { IdSchema, OkSchema, PageQuerySchema, SmsCodeSchema, pageOf } from '../common'
import { defineEndpoint } from '../endpoint'
import { HOSPITAL_CARD, HospitalCardSchema, HospitalRefSchema, HospitalSchema } from '../hospitals'

/*
 * The main service's hospitals-and-reports family (SPEC section 7), patient side: my reports, my
 * uploads (ys), my images grouped by hospital, exam and report details, read marks, report privacy,
 * personal files (加入个人档案), removing a report from my list, my hospitals, hospital detail.
 *
 * Ids: an exam is one study (a hospital's, or the patient's upload); a report belongs to an exam.
 * Per-person marks (read, private, archived, hidden) are kept per exam, so a report's marks and its
 * exam's marks are the same thing. Lists page with the spec's default of 10 (SPEC section 9).
 *
 * Everything here answers only what the caller may see; any other id answers 404
 * 检查不存在或您无权查看 (never 403: existence is not confirmed to a stranger).
 */

/** SPEC section 9: lists default to 10 a page. */
export const RECORDS_PAGE_SIZE = 10

/** YYYY-MM-DD. */
export const DateSchema = z
  .string()
  .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD（如 2026-01-31）'))

/**
 * A yes/no flag in a query string: the app may pass a boolean (sent as `true`/`false`) or `1`/`0`.
 * Read it with isFlagSet.
 */
export const QueryFlagSchema = z.optional(
  z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]),
)
export type QueryFlag = z.infer<typeof QueryFlagSchema>
export function isFlagSet(flag: QueryFlag): boolean {
  return flag === true || flag === 'true' || flag === '1'
}

export const ModalitySchema = z
  .string()
  .check(z.regex(/^[A-Za-z]{2,4}$/, '检查类型应为 CT、MR、DX 等 2–4 个字母'))

/** What the dates of a list filter: the study date (the day of the exam). */
export const DateRangeQuerySchema = z.object({
  dateFrom: z.optional(DateSchema),
  dateTo: z.optional(DateSchema),
})

// ---------------------------------------------------------------------------------------------------
// Statuses

/**
 * FHIR DiagnosticReport.status as the hospital sent it. Hospitals may send other FHIR codes
 * (registered, partial ...); those show reportStatusLabel's fallback.
 */
export const REPORT_STATUS_LABELS: Record<string, string> = {
  registered: '已登记',
  partial: '部分报告',
  preliminary: '初步报告',
  final: '正式报告',
  amended: '已修订',
  corrected: '已更正',
  appended: '已补充',
  cancelled: '已撤销',
  'entered-in-error': '已作废',
}
export function reportStatusLabel(status: string): string {
  return REPORT_STATUS_LABELS[status] ?? '报告'
}

/**
 * An exam's state. Hospital pushes land `ready`; an upload goes receiving (上传中) → processing
 * (解析中) → ready (可查看), or failed (失败, statusMessage says why).
 */
export const EXAM_STATUSES = ['receiving', 'processing', 'ready', 'failed'] as const
export const ExamStatusSchema = z.enum(EXAM_STATUSES)
export type ExamStatus = z.infer<typeof ExamStatusSchema>
export const EXAM_STATUS_LABELS: Record<ExamStatus, string> = {
  receiving: '上传中',
  processing: '解析中',
  ready: '可查看',
  failed: '失败',
}

// ---------------------------------------------------------------------------------------------------
// Shared shapes

/** The report of an exam as lists show it (no findings or conclusion: those need the detail). */
export const ReportBriefSchema = z.object({
  id: z.string(),
  status: z.string(),
  /** reportStatusLabel(status) */
  statusLabel: z.string(),
  /** ISO time the hospital issued (or last amended) it. */
  issuedAt: z.nullable(z.string()),
  /** The person opened it (or marked it read). */
  read: z.boolean(),
  /** Set private (设为隐私): opening it needs the password or an SMS code (unlockReports). */
  private: z.boolean(),
})
export type ReportBrief = z.infer<typeof ReportBriefSchema>

/** One exam in a list. */
export const ExamSummarySchema = z.object({
  id: z.string(),
  /** hospital: pushed by a hospital; upload: the patient's own upload. */
  source: z.enum(['hospital', 'upload']),
  /** null for uploads (hospitalText is what the patient typed). */
  hospital: z.nullable(HospitalRefSchema),
  hospitalText: z.nullable(z.string()),
  /** The hospital's exam number (检查号). */
  accessionNumber: z.nullable(z.string()),
  studyUid: z.nullable(z.string()),
  /** YYYY-MM-DD and HH:mm:ss, local time of the hospital. */
  studyDate: z.nullable(z.string()),
  studyTime: z.nullable(z.string()),
  /** ['CT'], ['MR', 'SR'] */
  modalities: z.array(z.string()),
  bodyPart: z.nullable(z.string()),
  /** The study description, or for uploads the title the patient gave. */
  title: z.string(),
  seriesCount: z.number(),
  instanceCount: z.number(),
  status: ExamStatusSchema,
  /** EXAM_STATUS_LABELS[status] */
  statusLabel: z.string(),
  statusMessage: z.nullable(z.string()),
  /** Added to personal files (加入个人档案). */
  archived: z.boolean(),
  /** null when the hospital has sent no report yet. */
  report: z.nullable(ReportBriefSchema),
  createdAt: z.string(),
})
export type ExamSummary = z.infer<typeof ExamSummarySchema>

// ---------------------------------------------------------------------------------------------------
// Lists

/** One line of 我的报告 (personalReport/index, index-weixin). */
export const ReportListItemSchema = z.object({
  /** The report's id (reportDetail, markReportsRead, setReportPrivacy, hideReport). */
  id: z.string(),
  examId: z.string(),
  hospital: HospitalRefSchema,
  /** The report's title (the exam's name: 胸部 CT 平扫). */
  title: z.string(),
  modalities: z.array(z.string()),
  studyDate: z.nullable(z.string()),
  status: z.string(),
  statusLabel: z.string(),
  issuedAt: z.nullable(z.string()),
  read: z.boolean(),
  private: z.boolean(),
  archived: z.boolean(),
  /**
   * The first words of 诊断意见 (at most 60 characters); always null for a private report, whose
   * content only the unlocked detail shows.
   */
  summary: z.nullable(z.string()),
})
export type ReportListItem = z.infer<typeof ReportListItemSchema>

export const listPersonalReports = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/reports',
  input: z.extend(PageQuerySchema, {
    /** 当前就诊人: a family member's personId (contract/main/family.ts); absent: the caller. */
    personId: z.optional(IdSchema),
    hospitalId: z.optional(IdSchema),
    dateFrom: z.optional(DateSchema),
    dateTo: z.optional(DateSchema),
    /** Private reports are left out unless this is set (they then come with private: true). */
    includePrivate: QueryFlagSchema,
    /** Only reports not read yet. */
    unreadOnly: QueryFlagSchema,
    /** Only reports added to personal files (个人档案). */
    archivedOnly: QueryFlagSchema,
  }),
  /**
   * Newest first (issued time, then study date). unread counts every unread report matching the
   * hospital and date filters (private ones only when includePrivate), for the badge.
   */
  output: z.extend(pageOf(ReportListItemSchema), { unread: z.number() }),
  auth: true,
  summary: '个人报告列表（未读标记，按医院与日期筛选；隐私报告默认不显示）',
})

/** One line of the patient's uploads (personalReport/index-ys). */
export const YsReportItemSchema = z.object({
  /** The exam (null while the upload has not become an exam yet, or failed before). */
  examId: z.nullable(z.string()),
  /** The upload (ingest job) it came from; null for an exam whose upload record is gone. */
  uploadId: z.nullable(z.string()),
  title: z.string(),
  hospitalText: z.nullable(z.string()),
  studyDate: z.nullable(z.string()),
  modalities: z.array(z.string()),
  seriesCount: z.number(),
  instanceCount: z.number(),
  sizeBytes: z.number(),
  /** Photos of a paper report attached to it. */
  photoCount: z.number(),
  status: ExamStatusSchema,
  statusLabel: z.string(),
  /** Why it failed, or what was skipped (压缩包中有 3 个文件不是 DICOM，已跳过). */
  statusMessage: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type YsReportItem = z.infer<typeof YsReportItemSchema>

export const listYsReports = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/reports/ys',
  input: z.extend(PageQuerySchema, {
    /** 当前就诊人: a family member's personId (contract/main/family.ts); absent: the caller. */
    personId: z.optional(IdSchema),
  }),
  /** Newest first: uploads still in progress or failed, and the exams they became. */
  output: pageOf(YsReportItemSchema),
  auth: true,
  summary: '我上传的影像（含解析状态）',
})

/** One hospital of 我的影像 (personalImage/index), or the patient's own uploads (hospital null). */
export const ImageGroupSchema = z.object({
  /** null: the group of the patient's uploads (我上传的影像). */
  hospital: z.nullable(HospitalRefSchema),
  examCount: z.number(),
  /** Exams whose report is not read yet. */
  unreadReports: z.number(),
  latestStudyDate: z.nullable(z.string()),
  /** The newest exams of the group (at most 3); the rest via listExams with this hospital. */
  latest: z.array(ExamSummarySchema),
})
export type ImageGroup = z.infer<typeof ImageGroupSchema>

export const UPLOADS_GROUP = 'upload'

export const listMyImages = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/images',
  input: z.object({
    /** 当前就诊人: a family member's personId (contract/main/family.ts); absent: the caller. */
    personId: z.optional(IdSchema),
    /** 选择: only these hospitals (comma separated ids; `upload` names the uploads group). */
    hospitalIds: z.optional(z.string().check(z.maxLength(1000, '选择的医院过多'))),
  }),
  /** Groups with the newest exam first; the uploads group last. */
  output: z.array(ImageGroupSchema),
  auth: true,
  summary: '我的影像（按医院分组）',
})

// ---------------------------------------------------------------------------------------------------
// Details

export const SeriesSummarySchema = z.object({
  id: z.string(),
  seriesUid: z.string(),
  modality: z.nullable(z.string()),
  seriesNumber: z.nullable(z.number()),
  description: z.nullable(z.string()),
  bodyPart: z.nullable(z.string()),
  instanceCount: z.number(),
  /**
   * The WADO-RS thumbnail of the series' middle instance, a path on the reference server
   * (`/dicomweb/studies/…/series/…/instances/…/thumbnail`); fetch it with the bearer token. null
   * when no instance of the series can be previewed (previewMessage says why).
   */
  thumbnailPath: z.nullable(z.string()),
  /** ready | unsupported | failed | none (of the middle instance) */
  previewStatus: z.string(),
  /** 暂不支持该图像格式的预览 … when there is no preview. */
  previewMessage: z.nullable(z.string()),
})
export type SeriesSummary = z.infer<typeof SeriesSummarySchema>

export const ExamFileSchema = z.object({
  id: z.string(),
  kind: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number(),
  width: z.nullable(z.number()),
  height: z.nullable(z.number()),
  createdAt: z.string(),
})
export type ExamFile = z.infer<typeof ExamFileSchema>

/**
 * Whose record this is, said on every record page (issue 9: "every record shows whose it is").
 * The server fills it from the caller's point of view at each request.
 */
export const RecordOwnerSchema = z.object({
  /** The person the record belongs to: createGrant's `personId` when the caller may grant it. */
  personId: z.string(),
  /**
   * self: the caller's own; family: a member the caller manages (亲情卡); grant: someone else's,
   * seen through a grant (no re-share).
   */
  relation: z.enum(['self', 'family', 'grant']),
  /** What the page says: 本人 / 女儿 张* / 张** 分享. Never an unmasked name. */
  label: z.string(),
})
export type RecordOwner = z.infer<typeof RecordOwnerSchema>

export const ExamDetailSchema = z.extend(ExamSummarySchema, {
  owner: RecordOwnerSchema,
  /** 张* (masked), as the hospital recorded it; null for uploads without a name. */
  patientNameMasked: z.nullable(z.string()),
  /** M | F | O as DICOM says. */
  patientSex: z.nullable(z.string()),
  patientBirthDate: z.nullable(z.string()),
  description: z.nullable(z.string()),
  notes: z.nullable(z.string()),
  sizeBytes: z.number(),
  series: z.array(SeriesSummarySchema),
  /** Photos the patient attached (uploads). */
  files: z.array(ExamFileSchema),
})
export type ExamDetail = z.infer<typeof ExamDetailSchema>

export const getExamDetail = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/exams/:examId',
  input: z.object({ examId: IdSchema }),
  output: ExamDetailSchema,
  auth: true,
  summary: '检查详情（检查信息、序列缩略图、报告概要）',
})

/** One file (DICOM instance) of a series, as the files list of 报告详情 (ys) shows it. */
export const SeriesInstanceSchema = z.object({
  id: z.string(),
  instanceNumber: z.nullable(z.number()),
  sopInstanceUid: z.string(),
  sizeBytes: z.number(),
  rows: z.nullable(z.number()),
  columns: z.nullable(z.number()),
  frameCount: z.number(),
})
export type SeriesInstance = z.infer<typeof SeriesInstanceSchema>

export const listSeriesInstances = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/exams/:examId/series/:seriesId/instances',
  input: z.object({ examId: IdSchema, seriesId: IdSchema }),
  /** In instance number order (files without one last, by arrival). */
  output: z.array(SeriesInstanceSchema),
  auth: true,
  summary: '一个序列的文件（DICOM 实例）列表',
})

/**
 * A key image (关键图像) the hospital's report names (FHIR DiagnosticReport.media): one frame of an
 * image of the report's own exam. Open it with the viewer on exactly this series, SOP and frame.
 */
export const KeyImageSchema = z.object({
  examId: z.string(),
  seriesUid: z.string(),
  sopInstanceUid: z.string(),
  /** 1-based frame of the instance. */
  frame: z.number(),
  /** The report's words about it (media.comment), when given. */
  comment: z.nullable(z.string()),
  /** The image's InstanceNumber and its series' description, for 第 N 层 (null: none). */
  instanceNumber: z.nullable(z.number()),
  seriesDescription: z.nullable(z.string()),
})
export type KeyImage = z.infer<typeof KeyImageSchema>

/** What a version of the report said (the amendment history). */
export const ReportVersionSchema = z.object({
  version: z.number(),
  status: z.string(),
  statusLabel: z.string(),
  /** When we received this version. */
  recordedAt: z.string(),
  issuedAt: z.nullable(z.string()),
  findings: z.nullable(z.string()),
  conclusion: z.nullable(z.string()),
  performer: z.nullable(z.string()),
  reviewer: z.nullable(z.string()),
  /**
   * The key images this version named, resolved as the detail's own (those of the exam that have
   * arrived). Optional: older servers leave it out, which means none.
   */
  keyImages: z.optional(z.array(KeyImageSchema)),
})
export type ReportVersion = z.infer<typeof ReportVersionSchema>

export const ReportDetailSchema = z.object({
  id: z.string(),
  examId: z.string(),
  owner: RecordOwnerSchema,
  /**
   * The exam's Study Instance UID (null when the hospital sent none): the viewer opened from a key
   * image fetches the series metadata at once instead of after the exam (issue 8, tap → first pixels).
   */
  studyUid: z.nullable(z.string()),
  hospital: HospitalRefSchema,
  title: z.string(),
  modalities: z.array(z.string()),
  accessionNumber: z.nullable(z.string()),
  studyDate: z.nullable(z.string()),
  studyTime: z.nullable(z.string()),
  patientNameMasked: z.nullable(z.string()),
  status: z.string(),
  statusLabel: z.string(),
  version: z.number(),
  /** Time of the exam (FHIR effective) and of the report (issued). */
  effectiveAt: z.nullable(z.string()),
  issuedAt: z.nullable(z.string()),
  updatedAt: z.string(),
  read: z.boolean(),
  private: z.boolean(),
  archived: z.boolean(),
  /**
   * true: the report is private and no valid unlock ticket came with the request; findings,
   * conclusion, doctors and history are then null/empty. Unlock with unlockReports.
   */
  locked: z.boolean(),
  /** 影像所见 */
  findings: z.nullable(z.string()),
  /** 诊断意见 */
  conclusion: z.nullable(z.string()),
  /** 报告医生 */
  performer: z.nullable(z.string()),
  /** 审核医生 */
  reviewer: z.nullable(z.string()),
  /** Earlier versions, oldest first (empty when never amended, or locked). */
  history: z.array(ReportVersionSchema),
  /**
   * Key images of the current version, in the report's order: only those of this exam that have
   * arrived (a report may come before its images). Empty when locked. Optional: older servers
   * leave it out, which means none.
   */
  keyImages: z.optional(z.array(KeyImageSchema)),
})
export type ReportDetail = z.infer<typeof ReportDetailSchema>

export const getReportDetail = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/reports/:reportId',
  input: z.object({
    reportId: IdSchema,
    /** From unlockReports, needed for a private report. */
    ticket: z.optional(z.string().check(z.maxLength(512))),
  }),
  /** Opening an unlocked report marks it read. */
  output: ReportDetailSchema,
  auth: true,
  summary: '报告详情（影像所见、诊断意见、医生、时间、状态、修订记录）；隐私报告需先验证身份',
})

// ---------------------------------------------------------------------------------------------------
// Marks

export const markReportsRead = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/reports/read',
  input: z.object({
    reportIds: z.optional(
      z.array(IdSchema).check(z.minLength(1, '请选择报告'), z.maxLength(100, '一次最多 100 份')),
    ),
    /** Every report of mine (not private ones unless includePrivate). */
    all: z.optional(z.boolean()),
    includePrivate: z.optional(z.boolean()),
  }),
  output: z.object({ marked: z.number() }),
  auth: true,
  summary: '标记报告为已读',
})

/** Unlock tickets are good for this long, for every private report of the account, in this session. */
export const REPORT_UNLOCK_TTL_SECONDS = 600

export const sendReportUnlockCode = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/reports/unlock/code',
  input: z.object({}),
  output: z.object({
    cooldownSeconds: z.number(),
    expiresInSeconds: z.number(),
    /** 138****8000: where the code went. */
    mobileMasked: z.string(),
  }),
  auth: true,
  summary: '向当前账号手机号发送查看隐私报告的验证码',
})

export const unlockReports = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/reports/unlock',
  /** One of the two: the login password, or the code sent by sendReportUnlockCode. */
  input: z.union([
    z.object({ password: z.string().check(z.minLength(1, '请输入密码'), z.maxLength(64)) }),
    z.object({ code: SmsCodeSchema }),
  ]),
  /**
   * A ticket for getReportDetail (and for setReportPrivacy when making a report public again), good
   * for REPORT_UNLOCK_TTL_SECONDS in this login session only.
   */
  output: z.object({ ticket: z.string(), expiresInSeconds: z.number() }),
  auth: true,
  summary: '验证身份（密码或短信验证码）以查看隐私报告',
})

export const setReportPrivacy = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/reports/:reportId/privacy',
  input: z.object({
    reportId: IdSchema,
    private: z.boolean({ error: '请选择是否设为隐私' }),
    /** Needed to make a private report public again (the same proof as opening it). */
    ticket: z.optional(z.string().check(z.maxLength(512))),
  }),
  output: ReportBriefSchema,
  auth: true,
  summary: '设为隐私 / 取消隐私（取消需先验证身份）',
})

export const setReportArchived = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/reports/:reportId/archive',
  input: z.object({ reportId: IdSchema, archived: z.optional(z.boolean()) }),
  /** archived defaults to true (加入个人档案); false takes it out again. */
  output: z.object({ archived: z.boolean() }),
  auth: true,
  summary: '加入个人档案',
})

export const hideReport = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/reports/:reportId',
  input: z.object({ reportId: IdSchema }),
  /**
   * Removes the report from MY list (the hospital's record stays; the exam's images stay in my
   * images). Opening it by id still works.
   */
  output: OkSchema,
  auth: true,
  summary: '从我的报告列表删除',
})

export const restoreReport = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/reports/:reportId/restore',
  input: z.object({ reportId: IdSchema }),
  output: OkSchema,
  auth: true,
  summary: '恢复已从列表删除的报告',
})

// ---------------------------------------------------------------------------------------------------
// Hospitals

export const MyHospitalSchema = z.extend(HospitalCardSchema, {
  /** Optional here: other servers may leave them out (the app then searches the address). */
  latitude: z.optional(HospitalSchema.shape.latitude),
  longitude: z.optional(HospitalSchema.shape.longitude),
  examCount: z.number(),
  reportCount: z.number(),
  latestStudyDate: z.nullable(z.string()),
})
export type MyHospital = z.infer<typeof MyHospitalSchema>

export const listMyHospitals = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/hospitals/mine',
  input: z.object({
    /** 当前就诊人: a family member's personId (contract/main/family.ts); absent: the caller. */
    personId: z.optional(IdSchema),
  }),
  /** Hospitals with at least one exam of mine, newest exam first. */
  output: z.array(MyHospitalSchema),
  auth: true,
  summary: '我的医院（有我检查记录的医院）',
})

export const HospitalDetailSchema = z.extend(
  z.pick(HospitalSchema, {
    ...HOSPITAL_CARD,
    regionCode: true,
    regionName: true,
    aiReporting: true,
    demo: true,
  }),
  { departments: z.array(z.object({ id: z.string(), name: z.string() })) },
)
export type HospitalDetail = z.infer<typeof HospitalDetailSchema>

export const getHospitalDetail = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/hospitals/:hospitalId',
  input: z.object({ hospitalId: IdSchema }),
  output: HospitalDetailSchema,
  auth: false,
  summary: '医院详情',
})
