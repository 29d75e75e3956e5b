import { z } from 'zod/mini'
import { IdSchema, OkSchema, pageOf, PageQuerySchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { safeDisplayText } from '../text'
import { ConsultServiceSchema, EXPERT_SERVICE_RULES, type ConsultService } from './expert-profiles'
import { ExpertTitleSchema } from './experts'
import { GrantRecordSchema, GrantStatusSchema } from './grants'

/*
 * Consultations (issue 21): a patient asks a certified expert about their own (or a family member's)
 * images and reports, pays, and the money is held until the answer comes.
 *
 * Under Chinese rules this is a health consultation and an image interpretation, never an online
 * diagnosis or a prescription (互联网诊疗管理办法 art. 16): every consultation page shows
 * CONSULT_NOTICE, and the application asks whether the person was seen offline for this problem.
 *
 * States (CONSULT_STATES): pending-payment → waiting-accept → in-progress → answered → completed,
 * or cancelled (unpaid: the patient cancelled, or CONSULT_PAY_MINUTES passed), declined (the expert
 * said 不接诊), expired (not accepted in time, or not answered in time); each of the last two refunds
 * in full. A 投诉 (within COMPLAINT_DAYS of the end) freezes the money until an operator decides.
 *
 * Money: integer fen. The price is the expert's, snapshotted at submission; the platform's share
 * (a setting, in basis points) is shown apart from the doctor's fee. Payment credits the
 * consultation's escrow; completion moves it to the expert's pending income and the platform's
 * revenue; refunds go back to the payer through the provider. See server/src/domain/ledger.
 */

export const CONSULT_NOTICE = '本服务为健康咨询及影像解读，不能替代线下面诊，不开具处方'

export const CONSULT_STATES = [
  'pending-payment',
  'waiting-accept',
  'in-progress',
  'answered',
  'completed',
  'cancelled',
  'declined',
  'expired',
] as const
export const ConsultStateSchema = z.enum(CONSULT_STATES)
export type ConsultState = z.infer<typeof ConsultStateSchema>
export const CONSULT_STATE_LABELS: Record<ConsultState, string> = {
  'pending-payment': '待支付',
  'waiting-accept': '待接诊',
  'in-progress': '进行中',
  answered: '已回复',
  completed: '已完成',
  cancelled: '已取消',
  declined: '专家未接诊',
  expired: '已超时',
}

/** 我的咨询's tabs and the states each shows (已回复 is still 进行中 for the patient). */
export const CONSULT_TABS = ['unpaid', 'waiting', 'active', 'done', 'closed'] as const
export const ConsultTabSchema = z.enum(CONSULT_TABS)
export type ConsultTab = z.infer<typeof ConsultTabSchema>
export const CONSULT_TAB_STATES: Record<ConsultTab, readonly ConsultState[]> = {
  unpaid: ['pending-payment'],
  waiting: ['waiting-accept'],
  active: ['in-progress', 'answered'],
  done: ['completed'],
  closed: ['cancelled', 'declined', 'expired'],
}
export const CONSULT_TAB_LABELS: Record<ConsultTab, string> = {
  unpaid: '待支付',
  waiting: '待接诊',
  active: '进行中',
  done: '已完成',
  closed: '已退款/已取消',
}

/** 患者咨询's tabs on the expert's side. */
export const EXPERT_CONSULT_TABS = ['waiting', 'active', 'done'] as const
export const ExpertConsultTabSchema = z.enum(EXPERT_CONSULT_TABS)
export type ExpertConsultTab = z.infer<typeof ExpertConsultTabSchema>
export const EXPERT_CONSULT_TAB_STATES: Record<ExpertConsultTab, readonly ConsultState[]> = {
  waiting: ['waiting-accept'],
  active: ['in-progress', 'answered'],
  done: ['completed', 'declined', 'expired'],
}
export const EXPERT_CONSULT_TAB_LABELS: Record<ExpertConsultTab, string> = {
  waiting: '待接诊',
  active: '进行中',
  done: '已完成',
}

// --- Times (hours unless named) ------------------------------------------------------------------

/** An unpaid order closes after this and gives the expert's daily slot back. */
export const CONSULT_PAY_MINUTES = 15
/** The expert accepts within this from payment, or the patient is refunded. */
export const CONSULT_ACCEPT_HOURS = 24
/** The answer promise (EXPERT_SERVICE_RULES[service].hours) counts from payment. */
export const consultAnswerHours = (service: ConsultService) => EXPERT_SERVICE_RULES[service].hours
/** 图文咨询 stays open this long after the first answer for follow-ups; then it completes. */
export const CONSULT_FOLLOWUP_HOURS = 48
/** Without 采纳, a consultation completes this long after the (first) answer. */
export const CONSULT_AUTO_COMPLETE_HOURS = 72
/** 投诉 is possible until this many days after the consultation ended. */
export const COMPLAINT_DAYS = 7
/** The grant to the expert lasts until this many days after the consultation ends. */
export const CONSULT_GRANT_DAYS_AFTER = 7
/** Follow-up messages the patient may send after the first answer (the expert's setting). */
export const FOLLOWUP_LIMIT_MIN = 0
export const FOLLOWUP_LIMIT_MAX = 10
export const FOLLOWUP_LIMIT_DEFAULT = 3

// --- Texts ---------------------------------------------------------------------------------------

export const CHIEF_COMPLAINT_MAX = 200
export const HISTORY_MAX = 1000
export const QUESTIONS_MAX = 500
export const DECLINE_REASON_MAX = 200
export const MESSAGE_TEXT_MAX = 1000
export const ANSWER_FIELD_MAX = 3000
export const RATING_TEXT_MAX = 300
export const COMPLAINT_TEXT_MAX = 500
/** Pictures in one application (offline diagnosis, external exams) and per chat message. */
export const CONSULT_PICTURES_MAX = 9
/** Exams and reports shared with the expert in one consultation. */
export const CONSULT_RECORDS_MAX = 10
export const EXTERNAL_EXAMS_MAX = 5
/** The share of the price the platform keeps, in basis points (an operator's setting). */
export const PLATFORM_SHARE_MAX_BP = 5000
export const PLATFORM_SHARE_DEFAULT_BP = 2000

export const RATING_TAGS = [
  '回复及时',
  '解答详细',
  '通俗易懂',
  '很有耐心',
  '专业权威',
  '建议实用',
] as const
export const RatingTagSchema = z.enum(RATING_TAGS, { error: '请选择有效的评价标签' })

export const CONSULT_MESSAGES = {
  notFound: '咨询不存在或您无权查看',
  notice: CONSULT_NOTICE,
  personRequired: '请选择就诊人',
  idCardRequired: '就诊人尚未绑定身份证，请先完成身份证绑定',
  chiefComplaintRequired: '请填写主诉（主要不适和持续时间）',
  chiefComplaintLong: `主诉最多 ${CHIEF_COMPLAINT_MAX} 个字`,
  historyLong: `病史最多 ${HISTORY_MAX} 个字`,
  questionsRequired: '请写下您想问专家的问题',
  questionsLong: `问题最多 ${QUESTIONS_MAX} 个字`,
  seenOfflineRequired: '请选择是否已在线下医院就诊',
  unsafeText: '内容不能包含控制字符或不可见字符',
  recordsRequired: '请至少选择一项检查、报告，或描述一项院外检查',
  recordsTooMany: `一次最多选择 ${CONSULT_RECORDS_MAX} 项检查或报告`,
  imagingNeedsExam: '影像会诊需要至少选择一项影像检查',
  externalTooMany: `院外检查最多 ${EXTERNAL_EXAMS_MAX} 项`,
  externalHospital: '请填写院外检查的医院',
  externalType: '请填写院外检查的类型，如 胸部CT',
  externalDate: '请选择院外检查的日期',
  picturesTooMany: `图片最多 ${CONSULT_PICTURES_MAX} 张`,
  pictureNotFound: '图片不存在或已删除，请重新上传',
  consentRequired: '请阅读并同意向该专家提供所选健康信息',
  consentOutdated: '授权说明已更新，请重新阅读并同意',
  selfExpert: '不能向自己咨询',
  expertFull: '专家今日已满，请明天再来或选择其他专家',
  priceChanged: '专家的价格已变化，请确认新价格后再提交',
  notPayable: '该订单已不能支付',
  payClosed: '订单已超时关闭，请重新提交',
  paymentNotConfigured: '支付未配置',
  paymentWechatOnly: '请在微信中打开以完成支付',
  paymentOpenid: '请使用微信登录后再支付',
  paymentUnavailable: '支付服务暂不可用，请稍后再试',
  demoPaymentInvalid: '演示支付已失效，请重新发起支付',
  cannotCancel: '当前状态不能取消',
  cannotAccept: '该咨询已不能接诊',
  cannotDecline: '该咨询已不能拒绝',
  declineReasonRequired: '请填写不接诊的原因，患者会看到它',
  declineReasonLong: `原因最多 ${DECLINE_REASON_MAX} 个字`,
  notAnswering: '当前状态不能回复',
  messageRequired: '请输入内容',
  messageLong: `每条消息最多 ${MESSAGE_TEXT_MAX} 个字`,
  followupsUsed: '追问次数已用完',
  conversationClosed: '该咨询已结束，不能再发送消息',
  answerRequired: '请填写影像所见、会诊意见和建议',
  answerFieldLong: `每一项最多 ${ANSWER_FIELD_MAX} 个字`,
  answerSigned: '意见已签署，不能修改，可补充说明',
  reauthFailed: '密码或验证码不正确',
  notAnswered: '专家尚未回复，暂不能采纳',
  cannotAdopt: '当前状态不能采纳',
  cannotRate: '咨询完成后才能评价',
  rated: '您已评价过该咨询',
  ratingStars: '请选择 1–5 星',
  ratingTextLong: `评价最多 ${RATING_TEXT_MAX} 个字`,
  complaintWindow: `仅可在咨询结束后 ${COMPLAINT_DAYS} 天内投诉`,
  complaintExists: '该咨询已有投诉，请等待平台处理',
  complaintRequired: '请写下投诉的原因',
  complaintLong: `投诉最多 ${COMPLAINT_TEXT_MAX} 个字`,
  complaintDecided: '该投诉已处理',
  refundTooMuch: '退款金额不能超过实付金额',
  cannotPublish: '咨询完成后才能公开',
  publicNotFound: '该问答不存在或已不公开',
  platformShare: `平台分成应在 0–${PLATFORM_SHARE_MAX_BP / 100}% 之间`,
} as const

const boundedText = (max: number, long: string) =>
  z.string().check(z.maxLength(max, long), safeDisplayText(CONSULT_MESSAGES.unsafeText))

// --- Money ---------------------------------------------------------------------------------------

/** Amounts a person reads: 元 with two decimals, computed from integer fen. */
export function yuanOf(fen: number): string {
  const sign = fen < 0 ? '-' : ''
  const abs = Math.abs(fen)
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** The platform's share of a price, in fen (rounded half up), the rest is the doctor's fee. */
export function splitPrice(
  priceFen: number,
  shareBp: number,
): { platformFen: number; expertFen: number } {
  const platformFen = Math.floor((priceFen * shareBp + 5000) / 10000)
  return { platformFen, expertFen: priceFen - platformFen }
}

export const PAYMENT_STATES = ['pending', 'paid', 'closed'] as const
export const REFUND_STATES = ['processing', 'succeeded', 'failed'] as const
export const REFUND_STATE_LABELS: Record<(typeof REFUND_STATES)[number], string> = {
  processing: '退款中',
  succeeded: '已退款',
  failed: '退款异常（平台处理中）',
}

/** The consultation's order (the spec's "order by origin id"). */
export const ConsultOrderSchema = z.object({
  orderNo: z.string(),
  priceFen: z.number(),
  expertFen: z.number(),
  platformFen: z.number(),
  provider: z.enum(['wechatpay', 'demo', 'unconfigured']),
  /** pending (unpaid), paid, closed (unpaid and closed). */
  paymentState: z.enum(PAYMENT_STATES),
  paidAt: z.nullable(z.string()),
  payBy: z.string(),
  refunds: z.array(
    z.object({
      refundNo: z.string(),
      amountFen: z.number(),
      state: z.enum(REFUND_STATES),
      stateLabel: z.string(),
      reason: z.string(),
      createdAt: z.string(),
      succeededAt: z.nullable(z.string()),
    }),
  ),
  refundedFen: z.number(),
})
export type ConsultOrder = z.infer<typeof ConsultOrderSchema>

// --- The application -----------------------------------------------------------------------------

export const ExternalExamSchema = z.object({
  hospital: z
    .string({ error: CONSULT_MESSAGES.externalHospital })
    .check(
      z.minLength(1, CONSULT_MESSAGES.externalHospital),
      z.maxLength(50, '医院名称最多 50 个字'),
      safeDisplayText(CONSULT_MESSAGES.unsafeText),
    ),
  /** YYYY-MM-DD */
  date: z
    .string({ error: CONSULT_MESSAGES.externalDate })
    .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, CONSULT_MESSAGES.externalDate)),
  type: z
    .string({ error: CONSULT_MESSAGES.externalType })
    .check(
      z.minLength(1, CONSULT_MESSAGES.externalType),
      z.maxLength(30, '检查类型最多 30 个字'),
      safeDisplayText(CONSULT_MESSAGES.unsafeText),
    ),
  /** Uploaded consultation pictures (uploadConsultPicture ids). */
  pictureIds: z
    .array(IdSchema)
    .check(z.maxLength(CONSULT_PICTURES_MAX, CONSULT_MESSAGES.picturesTooMany)),
})
export type ExternalExam = z.infer<typeof ExternalExamSchema>

export const ConsultApplicationInputSchema = z.object({
  expertId: IdSchema,
  service: ConsultServiceSchema,
  /** The 就诊人: the caller or a family member they manage; default the caller. */
  personId: z.optional(IdSchema),
  chiefComplaint: z
    .string({ error: CONSULT_MESSAGES.chiefComplaintRequired })
    .check(
      z.minLength(2, CONSULT_MESSAGES.chiefComplaintRequired),
      z.maxLength(CHIEF_COMPLAINT_MAX, CONSULT_MESSAGES.chiefComplaintLong),
      safeDisplayText(CONSULT_MESSAGES.unsafeText),
    ),
  presentIllness: boundedText(HISTORY_MAX, CONSULT_MESSAGES.historyLong),
  pastHistory: boundedText(HISTORY_MAX, CONSULT_MESSAGES.historyLong),
  allergies: boundedText(200, '过敏史最多 200 个字'),
  questions: z
    .string({ error: CONSULT_MESSAGES.questionsRequired })
    .check(
      z.minLength(2, CONSULT_MESSAGES.questionsRequired),
      z.maxLength(QUESTIONS_MAX, CONSULT_MESSAGES.questionsLong),
      safeDisplayText(CONSULT_MESSAGES.unsafeText),
    ),
  seenOffline: z.boolean({ error: CONSULT_MESSAGES.seenOfflineRequired }),
  /** Photos of the offline diagnosis (门诊病历, 出院小结), optional. */
  offlinePictureIds: z
    .array(IdSchema)
    .check(z.maxLength(CONSULT_PICTURES_MAX, CONSULT_MESSAGES.picturesTooMany)),
  examIds: z
    .array(IdSchema)
    .check(z.maxLength(CONSULT_RECORDS_MAX, CONSULT_MESSAGES.recordsTooMany)),
  /** Reports named one by one (a private report only when ticked on purpose). */
  reportIds: z
    .array(IdSchema)
    .check(z.maxLength(CONSULT_RECORDS_MAX, CONSULT_MESSAGES.recordsTooMany)),
  externalExams: z
    .array(ExternalExamSchema)
    .check(z.maxLength(EXTERNAL_EXAMS_MAX, CONSULT_MESSAGES.externalTooMany)),
  /** The price the patient saw; a different current price is refused (priceChanged). */
  priceFen: z.number().check(z.int()),
  /** The separate consent (PIPL art. 29) to share the chosen records with this expert. */
  consent: z.object({ accepted: z.boolean(), version: z.string().check(z.maxLength(32)) }),
})
export type ConsultApplicationInput = z.infer<typeof ConsultApplicationInputSchema>

/** The sharing consent's text, by version: the app shows it, the server records which was accepted. */
export const CONSULT_CONSENT_VERSION = '2026-11-29'
export const consultConsentText = (expertName: string, days: number) =>
  `我同意将所选的检查影像、报告和病情资料提供给${expertName}医生，仅用于本次健康咨询；授权在咨询结束 ${days} 天后自动失效，我可随时在授权记录中撤销。`

export const ConsultPersonSchema = z.object({
  personId: z.string(),
  /** 张* */
  nameMasked: z.string(),
  sex: z.enum(['male', 'female', 'unknown']),
  /** From the ID card; null when unknown. */
  age: z.nullable(z.number()),
  /** 本人 or the family relation (父亲...). */
  relationLabel: z.string(),
})
export type ConsultPerson = z.infer<typeof ConsultPersonSchema>

export const ConsultExpertSchema = z.object({
  id: z.string(),
  name: z.string(),
  photoPath: z.nullable(z.string()),
  title: ExpertTitleSchema,
  titleLabel: z.string(),
  hospitalName: z.string(),
  department: z.string(),
})

export const ConsultPictureSchema = z.object({
  id: z.string(),
  /** The picture's bytes (bearer-authorised; the grant's reader for the expert). */
  url: z.string(),
  width: z.nullable(z.number()),
  height: z.nullable(z.number()),
})
export type ConsultPicture = z.infer<typeof ConsultPictureSchema>

/** One row of 我的咨询 / 患者咨询. */
export const ConsultCardSchema = z.object({
  id: z.string(),
  service: ConsultServiceSchema,
  serviceLabel: z.string(),
  state: ConsultStateSchema,
  stateLabel: z.string(),
  expert: ConsultExpertSchema,
  person: ConsultPersonSchema,
  chiefComplaint: z.string(),
  priceFen: z.number(),
  createdAt: z.string(),
  /** The next deadline of this state (pay by, accept by, answer by, complete at), null when none. */
  deadline: z.nullable(z.string()),
  /** What the deadline means: 剩余支付时间, 接诊剩余, 回复剩余, 自动完成. */
  deadlineLabel: z.nullable(z.string()),
  /** Unread messages for the caller in this consultation. */
  unread: z.number(),
  /** A 投诉 waits for an operator. */
  disputed: z.boolean(),
})
export type ConsultCard = z.infer<typeof ConsultCardSchema>

export const ConsultEventSchema = z.object({
  state: ConsultStateSchema,
  label: z.string(),
  /** 患者, 专家, 系统, 平台 */
  actorLabel: z.string(),
  note: z.nullable(z.string()),
  at: z.string(),
})

export const ConsultAnswerSchema = z.object({
  findings: z.string(),
  opinion: z.string(),
  advice: z.string(),
  /** Signed from a report template (contract/main/opinions.ts): the 会诊报告's id. */
  reportId: z.optional(z.string()),
})
export type ConsultAnswer = z.infer<typeof ConsultAnswerSchema>

/** 咨询详情, as the patient (or the expert: `role`) sees it. */
export const ConsultDetailSchema = z.extend(ConsultCardSchema, {
  role: z.enum(['patient', 'expert']),
  presentIllness: z.string(),
  pastHistory: z.string(),
  allergies: z.string(),
  questions: z.string(),
  seenOffline: z.boolean(),
  offlinePictures: z.array(ConsultPictureSchema),
  externalExams: z.array(
    z.object({
      hospital: z.string(),
      date: z.string(),
      type: z.string(),
      pictures: z.array(ConsultPictureSchema),
    }),
  ),
  /** The records shared through the consultation's grant (opening them goes through it). */
  records: z.array(GrantRecordSchema),
  grant: z.object({
    id: z.string(),
    status: GrantStatusSchema,
    statusLabel: z.string(),
    expiresAt: z.string(),
  }),
  events: z.array(ConsultEventSchema),
  declineReason: z.nullable(z.string()),
  followupLimit: z.number(),
  followupsUsed: z.number(),
  adopted: z.boolean(),
  rating: z.nullable(
    z.object({ stars: z.number(), tags: z.array(z.string()), text: z.string(), at: z.string() }),
  ),
  complaint: z.nullable(
    z.object({
      text: z.string(),
      state: z.enum(['open', 'decided']),
      decision: z.nullable(z.string()),
      refundFen: z.nullable(z.number()),
      at: z.string(),
      decidedAt: z.nullable(z.string()),
    }),
  ),
  public: z.boolean(),
  /** What the caller may do now (the app shows only these buttons). */
  actions: z.object({
    pay: z.boolean(),
    cancel: z.boolean(),
    accept: z.boolean(),
    decline: z.boolean(),
    send: z.boolean(),
    answer: z.boolean(),
    adopt: z.boolean(),
    rate: z.boolean(),
    complain: z.boolean(),
    publish: z.boolean(),
  }),
  order: ConsultOrderSchema,
})
export type ConsultDetail = z.infer<typeof ConsultDetailSchema>

// --- Messages ------------------------------------------------------------------------------------

export const CONSULT_MESSAGE_KINDS = [
  'text',
  'picture',
  'record',
  'answer',
  'addendum',
  'system',
  'exam-request',
] as const
export const ConsultMessageKindSchema = z.enum(CONSULT_MESSAGE_KINDS)

/** kind 'exam-request': the expert's 检查建议 as the conversation's card (contract/main/exam-requests.ts). */
export const ConsultExamRequestCardSchema = z.object({
  id: z.string(),
  examTypeLabel: z.string(),
  bodyPart: z.string(),
  urgency: z.enum(['routine', 'soon', 'urgent']),
  urgencyLabel: z.string(),
})
export type ConsultExamRequestCard = z.infer<typeof ConsultExamRequestCardSchema>

export const ConsultMessageSchema = z.object({
  id: z.string(),
  /** Increasing per consultation: the cursor a reconnect reads after. */
  seq: z.number(),
  kind: ConsultMessageKindSchema,
  /** Whose it is: 'patient', 'expert', or 'system' (state changes). */
  from: z.enum(['patient', 'expert', 'system']),
  /** The caller sent it. */
  mine: z.boolean(),
  /** The sender's own client id (only on the caller's own messages): an optimistic bubble's match. */
  clientId: z.nullable(z.string()),
  text: z.string(),
  picture: z.nullable(ConsultPictureSchema),
  record: z.nullable(GrantRecordSchema),
  /** kind 'answer' / 'addendum' of an 影像会诊: the signed fields. */
  answer: z.nullable(ConsultAnswerSchema),
  /** kind 'exam-request': the suggestion's card; its 检查申请单 is getExamRequest. */
  examRequest: z.optional(z.nullable(ConsultExamRequestCardSchema)),
  signedAt: z.nullable(z.string()),
  createdAt: z.string(),
  /** The other side has read it. */
  read: z.boolean(),
})
export type ConsultMessage = z.infer<typeof ConsultMessageSchema>

// --- Patient calls -------------------------------------------------------------------------------

export const getConsultQuote = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/consultations/quote',
  input: z.object({ expertId: IdSchema, service: ConsultServiceSchema }),
  /** What 选择会诊方式 and 会诊申请信息 show: price split, promise, whether the expert takes it now. */
  output: z.object({
    expert: ConsultExpertSchema,
    service: ConsultServiceSchema,
    serviceLabel: z.string(),
    priceFen: z.number(),
    expertFen: z.number(),
    platformFen: z.number(),
    answerHours: z.number(),
    followupLimit: z.number(),
    /** null: available; else why not (暂停接诊, 未开通, 今日已满). */
    unavailable: z.nullable(z.string()),
    consentVersion: z.string(),
    consentText: z.string(),
    notice: z.string(),
  }),
  auth: true,
  summary: '咨询报价（价格、分成、时限、是否可约）',
})

export const listConsultPeople = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/consultations/people',
  input: z.object({}),
  /** The caller and the family members they manage, with whether an ID card is bound. */
  output: z.object({ items: z.array(z.extend(ConsultPersonSchema, { idCardBound: z.boolean() })) }),
  auth: true,
  summary: '可选就诊人（本人与亲情卡成员）',
})

export const uploadConsultPicture = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consultations/pictures',
  /** multipart: one `file` (JPEG/PNG/WebP, sniffed and re-encoded; ≤ 10 MB). */
  input: z.object({}),
  output: ConsultPictureSchema,
  auth: true,
  summary: '上传咨询图片（病历、院外检查、对话）',
})

export const createConsultation = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consultations',
  input: ConsultApplicationInputSchema,
  output: ConsultDetailSchema,
  auth: true,
  summary: '提交会诊申请（生成订单与授权，待支付）',
})

export const payConsultation = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consultations/:consultationId/pay',
  input: z.object({
    consultationId: IdSchema,
    /** Where the app pays: the mini-program, WeChat's browser, or another browser. */
    client: z.enum(['weapp', 'wechat-h5', 'h5']),
  }),
  output: z.object({
    kind: z.enum(['jsapi', 'demo']),
    /** jsapi: Taro.requestPayment's parameters. */
    params: z.nullable(
      z.object({
        appId: z.string(),
        timeStamp: z.string(),
        nonceStr: z.string(),
        package: z.string(),
        signType: z.literal('RSA'),
        paySign: z.string(),
      }),
    ),
    /** demo: the 演示支付 page confirms with it. */
    demoToken: z.nullable(z.string()),
    amountFen: z.number(),
    payBy: z.string(),
  }),
  auth: true,
  summary: '发起支付（微信支付 JSAPI 或演示支付）',
})

export const confirmDemoPayment = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consultations/:consultationId/demo-pay',
  input: z.object({ consultationId: IdSchema, token: z.string().check(z.maxLength(512)) }),
  /** Runs the same notification and settlement code a real payment does. */
  output: ConsultDetailSchema,
  auth: true,
  summary: '演示支付确认（不产生真实扣款）',
})

export const syncConsultPayment = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consultations/:consultationId/sync-payment',
  input: z.object({ consultationId: IdSchema }),
  /** After requestPayment returns: asks the provider when no notification has arrived yet. */
  output: ConsultDetailSchema,
  auth: true,
  summary: '查询支付结果（通知未到时主动查单）',
})

export const cancelConsultation = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consultations/:consultationId/cancel',
  /** Unpaid: closes the order. Paid and not yet accepted: a full refund (the patient's right). */
  input: z.object({ consultationId: IdSchema }),
  output: ConsultDetailSchema,
  auth: true,
  summary: '取消咨询（未支付关闭订单；待接诊全额退款）',
})

export const listMyConsultations = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/consultations',
  input: z.extend(PageQuerySchema, { tab: ConsultTabSchema }),
  output: z.extend(pageOf(ConsultCardSchema), {
    counts: z.record(ConsultTabSchema, z.number()),
  }),
  auth: true,
  summary: '我的咨询（按状态分页）',
})

export const getConsultation = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/consultations/:consultationId',
  input: z.object({ consultationId: IdSchema }),
  output: ConsultDetailSchema,
  auth: true,
  summary: '咨询详情（患者或接诊专家）',
})

export const listConsultMessages = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/consultations/:consultationId/messages',
  input: z.object({
    consultationId: IdSchema,
    /** Messages after this seq (the cursor); 0 or absent: from the start. */
    after: z.optional(z.coerce.number().check(z.int(), z.minimum(0))),
    limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100))),
  }),
  output: z.object({ items: z.array(ConsultMessageSchema), last: z.number(), more: z.boolean() }),
  auth: true,
  summary: '咨询对话（按游标读取，重连时补齐）',
})

export const sendConsultMessage = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consultations/:consultationId/messages',
  input: z.object({
    consultationId: IdSchema,
    /** The client's id for this send: a retry with the same id is one message. */
    clientId: z.string().check(z.minLength(8), z.maxLength(64)),
    text: z.optional(boundedText(MESSAGE_TEXT_MAX, CONSULT_MESSAGES.messageLong)),
    pictureId: z.optional(IdSchema),
    /** A shared record (kind and id of one of the grant's records) as a card. */
    record: z.optional(z.object({ kind: z.enum(['exam', 'report']), id: IdSchema })),
  }),
  output: ConsultMessageSchema,
  auth: true,
  summary: '发送咨询消息（文字、图片、检查卡片）',
})

export const markConsultRead = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consultations/:consultationId/read',
  input: z.object({ consultationId: IdSchema, seq: z.number().check(z.int(), z.minimum(0)) }),
  output: OkSchema,
  auth: true,
  summary: '标记对话已读到某条',
})

export const adoptConsultation = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consultations/:consultationId/adopt',
  input: z.object({ consultationId: IdSchema }),
  output: ConsultDetailSchema,
  auth: true,
  summary: '采纳回复（咨询完成，费用结算给专家）',
})

export const rateConsultation = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consultations/:consultationId/rating',
  input: z.object({
    consultationId: IdSchema,
    stars: z
      .number({ error: CONSULT_MESSAGES.ratingStars })
      .check(
        z.int(CONSULT_MESSAGES.ratingStars),
        z.minimum(1, CONSULT_MESSAGES.ratingStars),
        z.maximum(5, CONSULT_MESSAGES.ratingStars),
      ),
    tags: z.array(RatingTagSchema).check(z.maxLength(RATING_TAGS.length)),
    text: boundedText(RATING_TEXT_MAX, CONSULT_MESSAGES.ratingTextLong),
  }),
  output: ConsultDetailSchema,
  auth: true,
  summary: '评价（完成后一次）',
})

export const complainConsultation = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consultations/:consultationId/complaint',
  input: z.object({
    consultationId: IdSchema,
    text: z
      .string({ error: CONSULT_MESSAGES.complaintRequired })
      .check(
        z.minLength(2, CONSULT_MESSAGES.complaintRequired),
        z.maxLength(COMPLAINT_TEXT_MAX, CONSULT_MESSAGES.complaintLong),
        safeDisplayText(CONSULT_MESSAGES.unsafeText),
      ),
  }),
  output: ConsultDetailSchema,
  auth: true,
  summary: '投诉（冻结费用，等待平台处理）',
})

export const publishConsultation = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consultations/:consultationId/public',
  input: z.object({ consultationId: IdSchema, public: z.boolean() }),
  output: ConsultDetailSchema,
  auth: true,
  summary: '公开到专家主页 / 撤回公开',
})

export const deleteConsultation = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/consultations/:consultationId',
  /** Hides it from the asker's list and from public view; the record stays as the rules keep it. */
  input: z.object({ consultationId: IdSchema }),
  output: OkSchema,
  auth: true,
  summary: '删除咨询（从列表与公开问答中移除）',
})

// --- Public Q&A ----------------------------------------------------------------------------------

/** An anonymised question and answer the asker chose to publish: no pictures, no records. */
export const PublicQuestionSchema = z.object({
  id: z.string(),
  expertId: z.string(),
  expertName: z.string(),
  serviceLabel: z.string(),
  /** 患者 男 45岁 */
  askerLabel: z.string(),
  question: z.string(),
  answer: z.string(),
  answeredAt: z.string(),
  favourited: z.boolean(),
})
export type PublicQuestion = z.infer<typeof PublicQuestionSchema>

export const listPublicQuestions = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/questions',
  input: z.extend(PageQuerySchema, { expertId: z.optional(IdSchema) }),
  output: pageOf(PublicQuestionSchema),
  auth: false,
  summary: '公开问答（专家主页、搜索）',
})

// --- The expert's side ---------------------------------------------------------------------------

export const listExpertConsultations = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/expert/consultations',
  input: z.extend(PageQuerySchema, { tab: ExpertConsultTabSchema }),
  output: z.extend(pageOf(ConsultCardSchema), {
    counts: z.record(ExpertConsultTabSchema, z.number()),
  }),
  auth: true,
  role: 'expert',
  summary: '患者咨询（专家端，按状态分页）',
})

export const countExpertConsultations = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/expert/consultations/counts',
  input: z.object({}),
  /** The Mine tab badge: new questions waiting, and 采纳 so far (the spec's two counts). */
  output: z.object({ waiting: z.number(), unread: z.number(), adopted: z.number() }),
  auth: true,
  role: 'expert',
  summary: '新咨询数与采纳数（“我的”角标）',
})

export const acceptConsultation = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/expert/consultations/:consultationId/accept',
  input: z.object({ consultationId: IdSchema }),
  output: ConsultDetailSchema,
  auth: true,
  role: 'expert',
  summary: '接诊',
})

export const declineConsultation = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/expert/consultations/:consultationId/decline',
  input: z.object({
    consultationId: IdSchema,
    reason: z
      .string({ error: CONSULT_MESSAGES.declineReasonRequired })
      .check(
        z.minLength(2, CONSULT_MESSAGES.declineReasonRequired),
        z.maxLength(DECLINE_REASON_MAX, CONSULT_MESSAGES.declineReasonLong),
        safeDisplayText(CONSULT_MESSAGES.unsafeText),
      ),
  }),
  output: ConsultDetailSchema,
  auth: true,
  role: 'expert',
  summary: '不接诊（患者立即全额退款）',
})

const answerField = z
  .string({ error: CONSULT_MESSAGES.answerRequired })
  .check(
    z.minLength(2, CONSULT_MESSAGES.answerRequired),
    z.maxLength(ANSWER_FIELD_MAX, CONSULT_MESSAGES.answerFieldLong),
    safeDisplayText(CONSULT_MESSAGES.unsafeText),
  )

export const answerConsultation = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/expert/consultations/:consultationId/answer',
  /**
   * The expert's signed answer (影像会诊: 影像所见, 会诊意见, 建议; 图文咨询: the opinion is the reply),
   * signed by re-entering the password or an SMS code. Once signed it never changes; a second call
   * adds an addendum.
   */
  input: z.object({
    consultationId: IdSchema,
    clientId: z.string().check(z.minLength(8), z.maxLength(64)),
    findings: z.optional(answerField),
    opinion: answerField,
    advice: z.optional(answerField),
    password: z.optional(z.string().check(z.maxLength(64))),
    smsCode: z.optional(z.string().check(z.maxLength(6))),
  }),
  output: ConsultMessageSchema,
  auth: true,
  role: 'expert',
  summary: '签署并发送回复（影像所见、会诊意见、建议）',
})

// --- Operators -----------------------------------------------------------------------------------

export const OperatorConsultSchema = z.extend(ConsultCardSchema, {
  complaint: z.nullable(
    z.object({ text: z.string(), at: z.string(), state: z.enum(['open', 'decided']) }),
  ),
  paidFen: z.number(),
  refundedFen: z.number(),
})

export const operatorListConsultations = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/consultations',
  input: z.extend(PageQuerySchema, {
    state: z.optional(ConsultStateSchema),
    /** Only those with a 投诉 waiting for a decision. */
    disputed: z.optional(z.enum(['1'])),
  }),
  output: z.extend(pageOf(OperatorConsultSchema), {
    counts: z.record(ConsultStateSchema, z.number()),
    disputed: z.number(),
  }),
  auth: true,
  role: 'operator',
  summary: '咨询订单（运营，按状态与投诉）',
})

export const decideComplaint = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/consultations/:consultationId/complaint',
  input: z.object({
    consultationId: IdSchema,
    /** Refund this much to the patient (0: release all to the expert), at most what was paid. */
    refundFen: z.number().check(z.int(), z.minimum(0)),
    note: z
      .string({ error: '请填写处理说明，患者和专家都会看到它' })
      .check(
        z.minLength(2, '请填写处理说明，患者和专家都会看到它'),
        z.maxLength(200, '处理说明最多 200 个字'),
        safeDisplayText(CONSULT_MESSAGES.unsafeText),
      ),
  }),
  output: OperatorConsultSchema,
  auth: true,
  role: 'operator',
  summary: '处理投诉（全额、部分退款或结算给专家）',
})

export const getMoneySettings = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/money',
  input: z.object({}),
  output: z.object({
    platformShareBp: z.number(),
    /** The last `ledger:check` the server ran (on a schedule and on demand). */
    ledgerCheck: z.nullable(
      z.object({ ok: z.boolean(), at: z.string(), problems: z.array(z.string()) }),
    ),
    refundsFailed: z.number(),
  }),
  auth: true,
  role: 'operator',
  summary: '平台分成与账本核对',
})

export const updateMoneySettings = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/money',
  input: z.object({
    platformShareBp: z
      .number({ error: CONSULT_MESSAGES.platformShare })
      .check(
        z.int(CONSULT_MESSAGES.platformShare),
        z.minimum(0, CONSULT_MESSAGES.platformShare),
        z.maximum(PLATFORM_SHARE_MAX_BP, CONSULT_MESSAGES.platformShare),
      ),
  }),
  output: OkSchema,
  auth: true,
  role: 'operator',
  summary: '设置平台分成（只影响之后的新订单）',
})

export const runLedgerCheck = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/money/check',
  input: z.object({}),
  output: z.object({ ok: z.boolean(), at: z.string(), problems: z.array(z.string()) }),
  auth: true,
  role: 'operator',
  summary: '立即核对账本',
})
