import { z } from 'zod/mini'
import { IdSchema, pageOf, PageQuerySchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { safeDisplayText } from '../text'
import { HospitalRequestSchema } from './hospital-requests'

/*
 * Expert certification (issue 20, 专家认证). Any signed-in person applies with a bound ID card (the
 * certified name is the card's), the two practice-certificate photos, the fields below and the expert
 * agreement accepted by its version. An operator checks the application against the national registry
 * (国家卫健委医生执业注册信息查询: a public lookup with no API, the operator's own step) and approves or
 * rejects it with a reason. States: draft → pending → approved | rejected (→ resubmitted); draft or
 * pending → withdrawn. The certificate numbers and photos are never public: only the applicant and
 * operators read them.
 */

export const EXPERT_TITLES = ['chief', 'associate-chief', 'attending', 'resident'] as const
export const ExpertTitleSchema = z.enum(EXPERT_TITLES, { error: '请选择职称' })
export type ExpertTitle = z.infer<typeof ExpertTitleSchema>
export const EXPERT_TITLE_LABELS: Record<ExpertTitle, string> = {
  chief: '主任医师',
  'associate-chief': '副主任医师',
  attending: '主治医师',
  resident: '住院医师',
}

export const PRACTICE_CATEGORIES = ['clinical', 'tcm', 'dental', 'public-health'] as const
export const PracticeCategorySchema = z.enum(PRACTICE_CATEGORIES, { error: '请选择执业类别' })
export type PracticeCategory = z.infer<typeof PracticeCategorySchema>
export const PRACTICE_CATEGORY_LABELS: Record<PracticeCategory, string> = {
  clinical: '临床',
  tcm: '中医',
  dental: '口腔',
  'public-health': '公共卫生',
}

export const EXPERT_APPLICATION_STATUSES = [
  'draft',
  'pending',
  'approved',
  'rejected',
  'withdrawn',
] as const
export const ExpertApplicationStatusSchema = z.enum(EXPERT_APPLICATION_STATUSES)
export type ExpertApplicationStatus = z.infer<typeof ExpertApplicationStatusSchema>
export const EXPERT_APPLICATION_STATUS_LABELS: Record<ExpertApplicationStatus, string> = {
  draft: '草稿',
  pending: '待审核',
  approved: '已认证',
  rejected: '已驳回',
  withdrawn: '已撤回',
}

/** The certificate pages: the practice certificate's information and registration pages are required. */
export const EXPERT_PHOTO_KINDS = ['practice-info', 'practice-registration', 'badge'] as const
export const ExpertPhotoKindSchema = z.enum(EXPERT_PHOTO_KINDS, { error: '请选择照片类型' })
export type ExpertPhotoKind = z.infer<typeof ExpertPhotoKindSchema>
export const EXPERT_PHOTO_KIND_LABELS: Record<ExpertPhotoKind, string> = {
  'practice-info': '执业证书信息页',
  'practice-registration': '执业证书注册页',
  badge: '工牌或聘书',
}
export const EXPERT_REQUIRED_PHOTO_KINDS: readonly ExpertPhotoKind[] = [
  'practice-info',
  'practice-registration',
]
export const EXPERT_PHOTOS_PER_KIND = 3

export const DEPARTMENT_MAX = 30
export const PRACTICE_SCOPE_MAX = 50
export const SPECIALITIES_MAX = 8
export const SPECIALITY_MAX = 12
export const INTRODUCTION_MAX = 500
export const REJECT_REASON_MAX = 200

/**
 * 擅长方向: tags from one dictionary (the "select options" call, dictionary `speciality`), so the
 * directory can filter on them and a patient reads the same words on every profile. Grouped as
 * imaging subspecialities are, then the clinical areas a clinician expert reads images for.
 */
export const SPECIALITY_OPTIONS = [
  '胸部影像',
  '肺结节',
  '肺癌筛查',
  '间质性肺病',
  '神经影像',
  '脑血管病',
  '脑肿瘤',
  '癫痫影像',
  '头颈部影像',
  '甲状腺结节',
  '心血管影像',
  '冠脉CTA',
  '腹部影像',
  '肝脏肿瘤',
  '胰腺疾病',
  '泌尿生殖影像',
  '妇产影像',
  '骨肌影像',
  '脊柱疾病',
  '关节运动损伤',
  '骨肿瘤',
  '乳腺影像',
  '乳腺癌筛查',
  '儿科影像',
  '急诊影像',
  '介入放射',
  '超声诊断',
  '核医学',
  'PET-CT',
  '肿瘤疗效评估',
  '呼吸系统疾病',
  '心血管疾病',
  '神经系统疾病',
  '消化系统疾病',
  '骨科疾病',
  '肿瘤综合治疗',
] as const
const SPECIALITY_SET: ReadonlySet<string> = new Set(SPECIALITY_OPTIONS)

export const EXPERT_MESSAGES = {
  hospitalRequired: '请选择医院',
  hospitalUnknown: '所选医院不存在，请重新选择',
  departmentRequired: '请填写科室',
  departmentLong: `科室最多 ${DEPARTMENT_MAX} 个字`,
  departmentUnsafe: '科室名称不能包含控制字符或不可见字符',
  titleRequired: '请选择职称',
  practiceCertificate: '医师执业证书编码应为 15 位数字，请对照证书信息页填写',
  qualificationCertificate: '医师资格证书编码应为 15 至 27 位数字，请对照证书填写',
  categoryRequired: '请选择执业类别',
  scopeRequired: '请填写执业范围',
  scopeLong: `执业范围最多 ${PRACTICE_SCOPE_MAX} 个字`,
  scopeUnsafe: '执业范围不能包含控制字符或不可见字符',
  specialitiesRequired: '请至少选择 1 个擅长方向',
  specialitiesMany: `擅长方向最多 ${SPECIALITIES_MAX} 个`,
  specialityEmpty: '擅长方向不能为空',
  specialityLong: `每个擅长方向最多 ${SPECIALITY_MAX} 个字`,
  specialityUnsafe: '擅长方向不能包含控制字符或不可见字符',
  specialityUnknown: '请从列表中选择擅长方向',
  introductionLong: `个人简介最多 ${INTRODUCTION_MAX} 个字`,
  introductionUnsafe: '个人简介不能包含控制字符或不可见字符',
  agreementRequired: '请阅读并同意《专家服务协议》',
  agreementOutdated: '《专家服务协议》已更新，请重新阅读并同意',
  idCardMissing: '请先绑定本人身份证：认证的姓名以身份证为准',
  photosMissing: '请上传执业证书信息页和注册页照片',
  photosTooMany: `每类照片最多 ${EXPERT_PHOTOS_PER_KIND} 张`,
  photoNotFound: '照片不存在或已删除',
  fieldsMissing: (field: string) => `请填写${field}后再提交`,
  notFound: '认证申请不存在',
  noApplication: '您还没有认证申请',
  pendingLocked: '申请正在审核中，如需修改请先撤回',
  notWithdrawable: '只有草稿或待审核的申请可以撤回',
  notSubmittable: '只有草稿或被驳回的申请可以提交',
  alreadyDecided: '该申请已由其他运营人员处理或已撤回，请刷新后查看',
  rejectReasonRequired: '请填写驳回原因，申请人会看到它',
  rejectReasonLong: `驳回原因最多 ${REJECT_REASON_MAX} 个字`,
  rejectReasonUnsafe: '驳回原因不能包含控制字符或不可见字符',
  busy: '申请刚刚被修改，请刷新后重试',
} as const

/*
 * Certificate numbers. 医师执业证书编码 is 15 digits. 医师资格证书编码 is 27 digits on certificates
 * issued from 2000 on, and older certificates carry shorter numbers (15 digits and up), so we accept
 * 15 to 27 digits rather than refuse a real doctor whose certificate predates the current format.
 */
export const PRACTICE_CERTIFICATE_PATTERN = /^\d{15}$/
export const QUALIFICATION_CERTIFICATE_PATTERN = /^\d{15,27}$/

export const PracticeCertificateSchema = z
  .string({ error: EXPERT_MESSAGES.practiceCertificate })
  .check(z.trim(), z.regex(PRACTICE_CERTIFICATE_PATTERN, EXPERT_MESSAGES.practiceCertificate))
export const QualificationCertificateSchema = z
  .string({ error: EXPERT_MESSAGES.qualificationCertificate })
  .check(
    z.trim(),
    z.regex(QUALIFICATION_CERTIFICATE_PATTERN, EXPERT_MESSAGES.qualificationCertificate),
  )

const Department = z
  .string({ error: EXPERT_MESSAGES.departmentRequired })
  .check(
    z.trim(),
    z.minLength(1, EXPERT_MESSAGES.departmentRequired),
    z.maxLength(DEPARTMENT_MAX, EXPERT_MESSAGES.departmentLong),
    safeDisplayText(EXPERT_MESSAGES.departmentUnsafe),
  )
const PracticeScope = z
  .string({ error: EXPERT_MESSAGES.scopeRequired })
  .check(
    z.trim(),
    z.minLength(1, EXPERT_MESSAGES.scopeRequired),
    z.maxLength(PRACTICE_SCOPE_MAX, EXPERT_MESSAGES.scopeLong),
    safeDisplayText(EXPERT_MESSAGES.scopeUnsafe),
  )
const Speciality = z.string({ error: EXPERT_MESSAGES.specialityEmpty }).check(
  z.trim(),
  z.minLength(1, EXPERT_MESSAGES.specialityEmpty),
  z.maxLength(SPECIALITY_MAX, EXPERT_MESSAGES.specialityLong),
  safeDisplayText(EXPERT_MESSAGES.specialityUnsafe),
  z.refine((value) => SPECIALITY_SET.has(value), EXPERT_MESSAGES.specialityUnknown),
)
export const SpecialitiesSchema = z
  .array(Speciality, { error: EXPERT_MESSAGES.specialitiesRequired })
  .check(
    z.minLength(1, EXPERT_MESSAGES.specialitiesRequired),
    z.maxLength(SPECIALITIES_MAX, EXPERT_MESSAGES.specialitiesMany),
  )
// Patients read the introduction on the expert's page: text others see (contract/text.ts).
const Introduction = z
  .string()
  .check(
    z.trim(),
    z.maxLength(INTRODUCTION_MAX, EXPERT_MESSAGES.introductionLong),
    safeDisplayText(EXPERT_MESSAGES.introductionUnsafe, { multiline: true }),
  )

/**
 * A draft as saved: every field optional (the form is filled in several sittings), each checked when
 * present; submitting checks that all the required ones are there.
 */
export const ExpertDraftSchema = z.object({
  hospitalId: z.optional(IdSchema),
  /**
   * Instead of a hospital: the person's own request to add theirs (contract/main/hospital-requests.ts).
   * Saving one of the two clears the other.
   */
  hospitalRequestId: z.optional(IdSchema),
  department: z.optional(Department),
  title: z.optional(ExpertTitleSchema),
  practiceCertificateNo: z.optional(PracticeCertificateSchema),
  qualificationCertificateNo: z.optional(QualificationCertificateSchema),
  practiceCategory: z.optional(PracticeCategorySchema),
  practiceScope: z.optional(PracticeScope),
  specialities: z.optional(SpecialitiesSchema),
  introduction: z.optional(Introduction),
})
export type ExpertDraft = z.infer<typeof ExpertDraftSchema>

/** The required fields' names, as the 请填写…后再提交 message says them. */
export const EXPERT_FIELD_LABELS = {
  hospitalId: '医院',
  department: '科室',
  title: '职称',
  practiceCertificateNo: '医师执业证书编码',
  qualificationCertificateNo: '医师资格证书编码',
  practiceCategory: '执业类别',
  practiceScope: '执业范围',
  specialities: '擅长方向',
} as const

export const ExpertPhotoSchema = z.object({
  id: z.string(),
  kind: ExpertPhotoKindSchema,
  kindLabel: z.string(),
  /** Fetched with the token; the applicant's and operators' only (EXPERT_PHOTOS_PATH). */
  path: z.string(),
  width: z.number(),
  height: z.number(),
})

export const ExpertApplicationSchema = z.object({
  id: z.string(),
  status: ExpertApplicationStatusSchema,
  statusLabel: z.string(),
  hospitalId: z.nullable(z.string()),
  hospitalName: z.nullable(z.string()),
  /** The request to add the hospital, while the application waits for it (hospitalId null until added). */
  hospitalRequest: z.nullable(HospitalRequestSchema),
  department: z.nullable(z.string()),
  title: z.nullable(ExpertTitleSchema),
  titleLabel: z.nullable(z.string()),
  practiceCertificateNo: z.nullable(z.string()),
  qualificationCertificateNo: z.nullable(z.string()),
  practiceCategory: z.nullable(PracticeCategorySchema),
  practiceCategoryLabel: z.nullable(z.string()),
  practiceScope: z.nullable(z.string()),
  specialities: z.array(z.string()),
  introduction: z.string(),
  photos: z.array(ExpertPhotoSchema),
  /** The operator's reason, while the application is 已驳回 (and after, until it is decided again). */
  rejectReason: z.nullable(z.string()),
  agreementVersion: z.nullable(z.string()),
  submittedAt: z.nullable(z.string()),
  decidedAt: z.nullable(z.string()),
  updatedAt: z.string(),
})
export type ExpertApplication = z.infer<typeof ExpertApplicationSchema>

/** What an operator sees beside the photos: the applicant's name as on the bound ID card. */
export const OperatorExpertApplicationSchema = z.extend(ExpertApplicationSchema, {
  userId: z.string(),
  /** The bound card's holder name, in full: the operator checks it against the registry. */
  certifiedName: z.nullable(z.string()),
  mobileMasked: z.nullable(z.string()),
})

// --- The applicant -------------------------------------------------------------------------------

export const getMyExpertApplication = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/experts/application',
  input: z.object({}),
  /** The latest application, or null when the person has never applied. */
  output: z.nullable(ExpertApplicationSchema),
  auth: true,
  summary: '我的专家认证申请（最近一次，含状态和驳回原因）',
})

export const saveExpertDraft = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/experts/application',
  input: ExpertDraftSchema,
  output: ExpertApplicationSchema,
  auth: true,
  summary: '保存专家认证草稿（驳回后修改也用它）',
})

export const submitExpertApplication = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/experts/application/submit',
  input: z.object({
    /** The version of 《专家服务协议》 the person read and accepted (GET /main/app/agreements/expert). */
    agreementVersion: z
      .string({ error: EXPERT_MESSAGES.agreementRequired })
      .check(z.trim(), z.minLength(1, EXPERT_MESSAGES.agreementRequired), z.maxLength(20)),
  }),
  output: ExpertApplicationSchema,
  auth: true,
  summary: '提交专家认证申请（待审核）',
})

export const withdrawExpertApplication = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/experts/application/withdraw',
  input: z.object({}),
  /** Its photos are deleted with their files. */
  output: ExpertApplicationSchema,
  auth: true,
  summary: '撤回专家认证申请（照片随之删除）',
})

export const deleteExpertPhoto = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/experts/application/photos/:photoId',
  input: z.object({ photoId: IdSchema }),
  output: ExpertApplicationSchema,
  auth: true,
  summary: '删除认证照片',
})

/**
 * Uploading one certificate photo (multipart field `file`, `?kind=practice-info|…`): a raw route
 * like feedback images, answering the application with the photo. Reading one: GET
 * `${EXPERT_PHOTOS_PATH}/:photoId` (image/jpeg), the applicant and operators only.
 */
export const EXPERT_PHOTO_UPLOAD_PATH = '/main/experts/application/photos'
export const EXPERT_PHOTOS_PATH = '/main/experts/photos'

// --- Operators -----------------------------------------------------------------------------------

export const operatorListExpertApplications = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/expert-applications',
  /** Default: the pending queue, oldest submission first. */
  input: z.extend(PageQuerySchema, { status: z.optional(ExpertApplicationStatusSchema) }),
  output: pageOf(OperatorExpertApplicationSchema),
  auth: true,
  role: 'operator',
  summary: '运营：专家认证审核队列（默认待审核，先提交的在前）',
})

export const operatorGetExpertApplication = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/expert-applications/:applicationId',
  input: z.object({ applicationId: IdSchema }),
  output: OperatorExpertApplicationSchema,
  auth: true,
  role: 'operator',
  summary: '运营：专家认证申请详情（含证书照片）',
})

export const operatorApproveExpert = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/expert-applications/:applicationId/approve',
  input: z.object({ applicationId: IdSchema }),
  output: OperatorExpertApplicationSchema,
  auth: true,
  role: 'operator',
  summary: '运营：通过专家认证',
})

export const operatorRejectExpert = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/expert-applications/:applicationId/reject',
  input: z.object({
    applicationId: IdSchema,
    reason: z.string({ error: EXPERT_MESSAGES.rejectReasonRequired }).check(
      z.trim(),
      z.minLength(1, EXPERT_MESSAGES.rejectReasonRequired),
      z.maxLength(REJECT_REASON_MAX, EXPERT_MESSAGES.rejectReasonLong),
      // The applicant reads it in 我的消息: text others see (contract/text.ts).
      safeDisplayText(EXPERT_MESSAGES.rejectReasonUnsafe, { multiline: true }),
    ),
  }),
  output: OperatorExpertApplicationSchema,
  auth: true,
  role: 'operator',
  summary: '运营：驳回专家认证（附原因）',
})
