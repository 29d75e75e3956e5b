import { z } from 'zod/mini'
import { IdSchema, MobileSchema } from '../common'
import { defineEndpoint } from '../endpoint'

/*
 * 导出我的数据 (issue 24, PIPL art. 45): a person (or the family manager of a 亲情卡 member, never
 * anyone through a grant) asks for a copy of everything the product keeps about them; a job builds
 * one zip archive; a one-use link valid for 24 h goes by SMS to the asking account's own phone only.
 * The request needs the login password or an SMS code (purpose `verify-old`) again, and both the
 * request and the download are recorded in 登录记录 (the audit log).
 */

export const DATA_EXPORT_STATES = ['building', 'sent', 'downloaded', 'expired', 'failed'] as const
export const DataExportStateSchema = z.enum(DATA_EXPORT_STATES)
export type DataExportState = z.infer<typeof DataExportStateSchema>
export const DATA_EXPORT_STATE_LABELS: Record<DataExportState, string> = {
  building: '生成中',
  sent: '已发送到手机',
  downloaded: '已下载',
  expired: '已过期',
  failed: '生成失败',
}

/** How long a sent link works. */
export const DATA_EXPORT_LINK_HOURS = 24

/** What the archive holds, as the page lists it (the archive's README.txt says the same). */
export const DATA_EXPORT_CONTENTS = [
  '个人资料（含身份证信息、亲情卡关系、头像）',
  '同意过的协议与授权',
  '全部检查的原始 DICOM 影像，附 DICOMDIR 目录，任何看图软件可打开',
  '全部报告：FHIR R4 数据（Bundle）与可阅读的 PDF',
  '上传的影像与报告照片',
  '专家咨询：对话消息、图片与签署的会诊报告',
  '授权记录与谁看过',
  '我的消息、收藏、积分',
] as const

export const DATA_EXPORT_MESSAGES = {
  notFound: '导出记录不存在',
  personNotFound: '只能导出本人或您管理的家庭成员的数据',
  reauthRequired: '请输入登录密码或短信验证码以确认是您本人',
  noMobile: '请先绑定手机号：下载链接只发送到本账号的手机',
  inProgress: '已有一份导出正在生成，请等它完成后再申请',
  linkInvalid: '下载链接无效',
  linkUsed: '下载链接已使用过，每个链接只能下载一次。如需再次下载，请重新申请导出',
  linkExpired: '下载链接已过期（24 小时内有效），请重新申请导出',
  failed: '生成导出文件失败，请稍后重新申请',
  /** The SMS that carries the link; `{link}` is replaced. */
  sms: '【医影通】您申请的个人数据导出已生成，请在 24 小时内打开链接下载（仅可下载一次，请勿转发）：{link}',
} as const

export const DataExportSchema = z.object({
  id: z.string(),
  /** Whose data: the caller, or a family member they manage. */
  personId: z.string(),
  /** 本人, or the member's name as 亲情卡 shows it. */
  personLabel: z.string(),
  state: DataExportStateSchema,
  stateLabel: z.string(),
  createdAt: z.string(),
  /** When the link stops working (state sent). */
  expiresAt: z.nullable(z.string()),
  downloadedAt: z.nullable(z.string()),
  sizeBytes: z.nullable(z.number()),
  /** The phone the link went to, masked (138****0001). */
  mobileMasked: z.nullable(z.string()),
  /** Why it failed (state failed). */
  message: z.nullable(z.string()),
})
export type DataExport = z.infer<typeof DataExportSchema>

export const DataExportPersonSchema = z.object({ id: z.string(), label: z.string() })

export const listDataExports = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/data-exports',
  input: z.object({}),
  output: z.object({
    /** Whose data the caller may export: themselves first, then the members they manage. */
    people: z.array(DataExportPersonSchema),
    /** The caller's requests, newest first (at most 20). */
    items: z.array(DataExportSchema),
  }),
  auth: true,
  summary: '导出我的数据：可导出的人与导出记录',
})

export const requestDataExport = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/data-exports',
  input: z.object({
    /** Omitted: the caller. */
    personId: z.optional(IdSchema),
    password: z.optional(z.string().check(z.maxLength(64))),
    /** A `verify-old` code sent to the caller's phone. */
    smsCode: z.optional(z.string().check(z.maxLength(6))),
  }),
  output: DataExportSchema,
  auth: true,
  summary: '申请导出数据（再次验证身份；链接仅以短信发送到本账号手机）',
})

/**
 * The one-use download (not JSON: the zip itself). The token is the credential, so it needs no
 * login: the link is opened from the SMS, often in another browser.
 */
export const DATA_EXPORT_DOWNLOAD_PATH = '/main/data-exports/download'

export const demoLatestExportSms = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/demo/data-exports/sms',
  input: z.object({ mobile: MobileSchema }),
  output: z.object({ text: z.string(), sentAt: z.string() }),
  auth: false,
  summary: '仅演示模式：读取发往某手机号的最新一条导出下载短信（短信发件箱）',
})
