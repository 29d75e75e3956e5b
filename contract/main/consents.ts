import { z } from 'zod/mini'
import { defineEndpoint } from '../endpoint'

/*
 * 隐私与授权 (issue 24): every consent the product asks for, one ledger row each (PIPL art. 29: a
 * separate consent for each use of sensitive personal information, health data included).
 *
 * A consent is (purpose, target): the privacy policy has no target, a consultation's sharing consent
 * names its consultation, a grant its grant, an AI analysis its analysis. Each row is given or
 * withdrawn, with its text version, when, where (the page and the button) and for whom (the person,
 * or the family member a manager consented for); rows are never changed, so the history is the rows.
 *
 * Withdrawing stops what depends on the consent from the next request (a grant ends, a public answer
 * is hidden, an AI analysis not yet run never runs), and the answer says what it cannot undo.
 */

export const CONSENT_PURPOSES = [
  'privacy',
  'user',
  'expert',
  'consult-share',
  'grant',
  'ai-analysis',
  'public-qa',
  'subscribe',
  'family',
] as const
export const ConsentPurposeSchema = z.enum(CONSENT_PURPOSES, { error: '请选择授权事项' })
export type ConsentPurpose = z.infer<typeof ConsentPurposeSchema>

export interface ConsentPurposeRule {
  label: string
  /** What the consent allows, in one sentence. */
  about: string
  /** Whether 撤回 is offered here (the policies are withdrawn by deleting the account). */
  withdrawable: boolean
  /** What 撤回 does, said before the person confirms. */
  onWithdraw: string
  /** What 撤回 cannot undo (the law keeps it, or it has happened). */
  cannotUndo: string | null
}

export const CONSENT_RULES: Record<ConsentPurpose, ConsentPurposeRule> = {
  privacy: {
    label: '隐私政策',
    about: '按《隐私政策》处理你的个人信息，是使用本服务的前提',
    withdrawable: false,
    onWithdraw: '撤回对《隐私政策》的同意即停止使用本服务，请在“注销账号”中办理',
    cannotUndo: null,
  },
  user: {
    label: '用户协议',
    about: '《用户协议》约定了你与平台之间的权利义务',
    withdrawable: false,
    onWithdraw: '不再同意《用户协议》即停止使用本服务，请在“注销账号”中办理',
    cannotUndo: null,
  },
  expert: {
    label: '专家服务协议',
    about: '作为专家提供咨询和影像解读服务的约定',
    withdrawable: false,
    onWithdraw: '停止提供专家服务请在“专家管理”中暂停接诊，或注销账号',
    cannotUndo: null,
  },
  'consult-share': {
    label: '会诊资料共享',
    about: '向你选择的专家提供所选的影像和报告，用于本次会诊',
    withdrawable: true,
    onWithdraw: '撤回后专家立即不能再查看这些资料',
    cannotUndo: '专家已出具的会诊意见和对话记录按规定保存，不会因撤回而删除',
  },
  grant: {
    label: '授权查看',
    about: '让你指定的人或持有链接的人查看所选的影像和报告',
    withdrawable: true,
    onWithdraw: '撤回后对方立即不能再查看',
    cannotUndo: '对方在撤回前已查看的记录保留在查看记录中',
  },
  'ai-analysis': {
    label: 'AI 分析',
    about: '用 AI 软件分析你的影像，结果只作为会诊专家撰写意见的草稿',
    withdrawable: true,
    onWithdraw: '尚未开始的分析不再进行；已完成的分析结果将删除，不再提供给专家',
    cannotUndo: '专家已签署的会诊意见中采用的内容不会删除',
  },
  'public-qa': {
    label: '公开问答',
    about: '把会诊的问题和回答匿名公开到专家主页和搜索中（不含图片和资料）',
    withdrawable: true,
    onWithdraw: '撤回后问答立即从专家主页和搜索中隐藏',
    cannotUndo: '他人在撤回前已阅读的内容无法收回',
  },
  family: {
    label: '亲情卡代管',
    about: '家人代为查看和管理健康记录（14 岁以下儿童由监护人同意）',
    withdrawable: false,
    onWithdraw: '解除请在“亲情卡”中操作，解除后对方立即不能再代为查看和管理',
    cannotUndo: null,
  },
  subscribe: {
    label: '订阅消息',
    about: '在微信中接收会诊和提现进度的订阅消息',
    withdrawable: true,
    onWithdraw: '撤回后不再发送订阅消息，我的消息中仍可查看',
    cannotUndo: null,
  },
}

/**
 * Text versions of the consents whose words are the app's (not a policy document): a change of the
 * words is a new version, so a row says which words the person agreed to.
 */
export const CONSENT_TEXT_VERSIONS = {
  grant: 'grant-2026-11',
  'ai-analysis': 'ai-2026-11',
  'public-qa': 'public-2026-11',
  subscribe: 'subscribe-2026-11',
  family: 'family-2026-11',
} as const satisfies Partial<Record<ConsentPurpose, string>>

export const CONSENT_MESSAGES = {
  notFound: '未找到该授权',
  notWithdrawable: '该授权不能在此撤回',
  alreadyWithdrawn: '该授权已撤回',
  outdated: '条款已更新，请重新阅读后同意',
  withdrawn: '已撤回',
} as const

export const ConsentActionSchema = z.enum(['given', 'withdrawn'])
export type ConsentAction = z.infer<typeof ConsentActionSchema>

export const ConsentEventSchema = z.object({
  action: ConsentActionSchema,
  actionLabel: z.string(),
  at: z.string(),
  version: z.string(),
  /** Where: the page and the button. */
  channel: z.nullable(z.string()),
})

export const ConsentItemSchema = z.object({
  purpose: ConsentPurposeSchema,
  /** The consultation, grant or analysis it is about; null for the policies. */
  targetId: z.nullable(z.string()),
  /** What was named when it was given: 向 王专家 共享 2 项记录. */
  title: z.string(),
  /** For whom, masked: 本人 or the family member's name. */
  subject: z.string(),
  state: ConsentActionSchema,
  stateLabel: z.string(),
  version: z.string(),
  /** Newest first. */
  history: z.array(ConsentEventSchema),
  canWithdraw: z.boolean(),
})
export type ConsentItem = z.infer<typeof ConsentItemSchema>

export const ConsentGroupSchema = z.object({
  purpose: ConsentPurposeSchema,
  label: z.string(),
  about: z.string(),
  withdrawable: z.boolean(),
  onWithdraw: z.string(),
  cannotUndo: z.nullable(z.string()),
  items: z.array(ConsentItemSchema),
})
export type ConsentGroup = z.infer<typeof ConsentGroupSchema>

export const listConsents = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/consents',
  input: z.object({}),
  output: z.object({ groups: z.array(ConsentGroupSchema) }),
  auth: true,
  summary: '隐私与授权：每项授权的当前状态和历史',
})

export const withdrawConsent = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consents/withdraw',
  input: z.object({
    purpose: ConsentPurposeSchema,
    targetId: z.nullable(z.string().check(z.maxLength(64))),
  }),
  output: z.object({
    item: ConsentItemSchema,
    /** What stopped, and what stays (CONSENT_RULES). */
    done: z.string(),
    kept: z.nullable(z.string()),
  }),
  auth: true,
  summary: '撤回一项授权，依赖它的处理从下一次请求起停止',
})

/**
 * The consents the app itself asks for: a policy accepted again after it changed (signed in), and
 * WeChat subscribe messages (`targetId` the notice kind, after requestSubscribeMessage accepted).
 */
export const recordConsent = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/consents',
  input: z.object({
    purpose: z.enum(['privacy', 'user', 'subscribe'], { error: '请选择授权事项' }),
    version: z.string().check(z.minLength(1), z.maxLength(32)),
    targetId: z.nullable(z.string().check(z.maxLength(64))),
    /** Where it was asked: the page and the button, as the app names them. */
    channel: z.string().check(z.minLength(1), z.maxLength(60)),
  }),
  output: z.object({ item: ConsentItemSchema }),
  auth: true,
  summary: '记录一项同意（条款更新后再次同意、订阅消息）',
})
