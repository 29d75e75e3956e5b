import { z } from 'zod/mini'
import { IdSchema, pageOf, PageQuerySchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { safeDisplayText } from '../text'

/*
 * "My hospital is not listed" (issue 20, 选择医院). An applicant for expert certification whose
 * hospital is not in the directory asks for it to be added; the application can be submitted with
 * the request in place of a hospital, and an operator cannot approve it until the request is settled.
 * The operator finds the hospital (it may already be listed under its full name) or adds it in 医院管理,
 * then resolves the request with that hospital, which fills it into every application waiting for it;
 * or declines it with a reason. Either way the requester gets a 我的消息 entry.
 */

export const HOSPITAL_REQUEST_STATUSES = ['pending', 'added', 'declined'] as const
export const HospitalRequestStatusSchema = z.enum(HOSPITAL_REQUEST_STATUSES)
export type HospitalRequestStatus = z.infer<typeof HospitalRequestStatusSchema>
export const HOSPITAL_REQUEST_STATUS_LABELS: Record<HospitalRequestStatus, string> = {
  pending: '待添加',
  added: '已添加',
  declined: '未添加',
}

export const HOSPITAL_REQUEST_NAME_MAX = 50
export const HOSPITAL_REQUEST_PLACE_MAX = 20
export const HOSPITAL_REQUEST_ADDRESS_MAX = 100
export const HOSPITAL_REQUEST_DECLINE_MAX = 200
/** Requests a person may have waiting at once: enough for a doctor at two sites, not a flood. */
export const HOSPITAL_REQUESTS_PENDING_MAX = 3

export const HOSPITAL_REQUEST_MESSAGES = {
  nameRequired: '请填写医院全称',
  nameLong: `医院名称最多 ${HOSPITAL_REQUEST_NAME_MAX} 个字`,
  nameUnsafe: '医院名称不能包含控制字符或不可见字符',
  provinceRequired: '请填写医院所在省份',
  cityRequired: '请填写医院所在城市',
  placeLong: `省份、城市最多 ${HOSPITAL_REQUEST_PLACE_MAX} 个字`,
  placeUnsafe: '省份、城市不能包含控制字符或不可见字符',
  addressLong: `地址最多 ${HOSPITAL_REQUEST_ADDRESS_MAX} 个字`,
  addressUnsafe: '地址不能包含控制字符或不可见字符',
  alreadyListed: (name: string) => `「${name}」已在医院列表中，请直接搜索选择`,
  tooMany: `您已有 ${HOSPITAL_REQUESTS_PENDING_MAX} 个待添加的医院申请，请等运营人员处理后再提交`,
  notFound: '医院申请不存在',
  notYours: '医院申请不存在',
  declined: '该医院申请未通过，请重新选择医院',
  alreadyDecided: '该医院申请已由其他运营人员处理，请刷新后查看',
  hospitalUnknown: '所选医院不存在，请先在医院管理中添加',
  declineReasonRequired: '请填写未添加的原因，申请人会看到它',
  declineReasonLong: `原因最多 ${HOSPITAL_REQUEST_DECLINE_MAX} 个字`,
  declineReasonUnsafe: '原因不能包含控制字符或不可见字符',
  /** An operator approving an application whose hospital is still only a request. */
  approveWaits: '该申请的医院尚未添加：请先在「医院申请」中处理',
} as const

const text = (
  max: number,
  required: string,
  long: string,
  unsafe: string,
): z.ZodMiniString<string> =>
  z
    .string({ error: required })
    .check(z.trim(), z.minLength(1, required), z.maxLength(max, long), safeDisplayText(unsafe))

export const HospitalRequestInputSchema = z.object({
  name: text(
    HOSPITAL_REQUEST_NAME_MAX,
    HOSPITAL_REQUEST_MESSAGES.nameRequired,
    HOSPITAL_REQUEST_MESSAGES.nameLong,
    HOSPITAL_REQUEST_MESSAGES.nameUnsafe,
  ),
  province: text(
    HOSPITAL_REQUEST_PLACE_MAX,
    HOSPITAL_REQUEST_MESSAGES.provinceRequired,
    HOSPITAL_REQUEST_MESSAGES.placeLong,
    HOSPITAL_REQUEST_MESSAGES.placeUnsafe,
  ),
  city: text(
    HOSPITAL_REQUEST_PLACE_MAX,
    HOSPITAL_REQUEST_MESSAGES.cityRequired,
    HOSPITAL_REQUEST_MESSAGES.placeLong,
    HOSPITAL_REQUEST_MESSAGES.placeUnsafe,
  ),
  address: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(HOSPITAL_REQUEST_ADDRESS_MAX, HOSPITAL_REQUEST_MESSAGES.addressLong),
        safeDisplayText(HOSPITAL_REQUEST_MESSAGES.addressUnsafe),
      ),
  ),
})
export type HospitalRequestInput = z.infer<typeof HospitalRequestInputSchema>

export const HospitalRequestSchema = z.object({
  id: z.string(),
  name: z.string(),
  province: z.string(),
  city: z.string(),
  address: z.nullable(z.string()),
  status: HospitalRequestStatusSchema,
  statusLabel: z.string(),
  /** The hospital it was resolved with (its directory name may differ from the one asked for). */
  hospitalId: z.nullable(z.string()),
  hospitalName: z.nullable(z.string()),
  declineReason: z.nullable(z.string()),
  createdAt: z.string(),
  decidedAt: z.nullable(z.string()),
})
export type HospitalRequest = z.infer<typeof HospitalRequestSchema>

export const createHospitalRequest = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/experts/hospital-requests',
  /** Asking twice for the same name while it waits answers the same request. */
  input: HospitalRequestInputSchema,
  output: HospitalRequestSchema,
  auth: true,
  summary: '申请添加医院（选择医院时找不到）',
})

export const listMyHospitalRequests = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/experts/hospital-requests',
  input: z.object({}),
  /** Newest first. */
  output: z.array(HospitalRequestSchema),
  auth: true,
  summary: '我的医院申请',
})

export const OperatorHospitalRequestSchema = z.extend(HospitalRequestSchema, {
  mobileMasked: z.nullable(z.string()),
  /** Pending expert applications waiting for this hospital. */
  waitingApplications: z.number(),
})

export const operatorListHospitalRequests = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/hospital-requests',
  /** Default: the pending ones, oldest first. */
  input: z.extend(PageQuerySchema, { status: z.optional(HospitalRequestStatusSchema) }),
  output: pageOf(OperatorHospitalRequestSchema),
  auth: true,
  role: 'operator',
  summary: '运营：医院申请（专家认证找不到医院时提交）',
})

export const operatorResolveHospitalRequest = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/hospital-requests/:requestId/resolve',
  /** The directory's hospital it is (found, or just added in 医院管理). */
  input: z.object({ requestId: IdSchema, hospitalId: IdSchema }),
  output: OperatorHospitalRequestSchema,
  auth: true,
  role: 'operator',
  summary: '运营：医院申请已添加（关联到医院，等待它的认证申请随之更新）',
})

export const operatorDeclineHospitalRequest = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/hospital-requests/:requestId/decline',
  input: z.object({
    requestId: IdSchema,
    reason: z
      .string({ error: HOSPITAL_REQUEST_MESSAGES.declineReasonRequired })
      .check(
        z.trim(),
        z.minLength(1, HOSPITAL_REQUEST_MESSAGES.declineReasonRequired),
        z.maxLength(HOSPITAL_REQUEST_DECLINE_MAX, HOSPITAL_REQUEST_MESSAGES.declineReasonLong),
        safeDisplayText(HOSPITAL_REQUEST_MESSAGES.declineReasonUnsafe, { multiline: true }),
      ),
  }),
  output: OperatorHospitalRequestSchema,
  auth: true,
  role: 'operator',
  summary: '运营：医院申请不予添加（附原因）',
})
