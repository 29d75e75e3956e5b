import { z } from 'zod/mini'
import { defineEndpoint } from '../endpoint'

/*
 * The retention schedule (issue 24): for each kind of record, what is kept, how long, from when, why,
 * and what happens at the end. It is data, and this is its one copy: the server's purge enforces these
 * periods (server/src/domain/retention), the account deletion page and the README say them.
 */

/** A calendar period (UTC calendar arithmetic); null: no end (kept as long as the law or the ledger needs). */
export type RetentionPeriod =
  { years: number } | { months: number } | { days: number } | { hours: number } | null

/** deleted: the rows go; anonymised: the rows stay without what identifies a person; kept: never purged. */
export type RetentionEnd = 'deleted' | 'anonymised' | 'kept'

export interface RetentionRule {
  id: string
  /** What is kept, as a person would name it. */
  what: string
  period: RetentionPeriod
  /** The period in words (or why there is none). */
  keptFor: string
  /** The moment the period counts from. */
  from: string
  /** The rule behind it. */
  why: string
  end: RetentionEnd
  /** What exactly happens at the end. */
  endDetail: string
}

const PIPL_19 = '个人信息保护法第十九条：保存期限为实现处理目的所必要的最短时间'
const CONSULT_RULES = '互联网诊疗监管细则（试行）（国卫办医发〔2022〕2号）'

export const RETENTION_RULES = [
  {
    id: 'security-events',
    what: '安全日志（登录、登录失败、锁定、改密、换绑、注销等，含打码的地址与设备）',
    period: { months: 12 },
    keptFor: '12 个月',
    from: '记录之时',
    why: '网络安全法第二十一条：网络日志留存不少于六个月；一年让本人在“登录记录”中回看整年',
    end: 'deleted',
    endDetail: '删除，已注销账号的日志同样到期删除',
  },
  {
    id: 'sms-codes',
    what: '短信验证码（只存哈希）、验证凭证与演示短信发件箱',
    period: { days: 1 },
    keptFor: '1 天',
    from: '验证码或凭证过期之时（发件箱：发送之时）',
    why: `${PIPL_19}；过期后一天内仍能答复“验证码已过期”而不是“无验证码”`,
    end: 'deleted',
    endDetail: '删除',
  },
  {
    id: 'limit-counters',
    what: '频率限制与登录失败计数（手机号与地址只存密钥哈希）',
    period: { days: 1 },
    keptFor: '计数窗口结束即删；登录失败计数 1 天',
    from: '计数窗口结束之时（登录失败：最后一次变动）',
    why: PIPL_19,
    end: 'deleted',
    endDetail: '删除',
  },
  {
    id: 'sessions',
    what: '登录会话与分享链接访客会话（令牌只存哈希）',
    period: { days: 0 },
    keptFor: '到期即删（登录最长 90 天）',
    from: '刷新令牌或访客会话过期之时',
    why: `${PIPL_19}；过期的会话既不能使用也不能刷新`,
    end: 'deleted',
    endDetail: '删除',
  },
  {
    id: 'consultation-conversations',
    what: '会诊对话：文字、图片、投诉内容、未签署的报告草稿',
    period: { years: 3 },
    keptFor: '3 年',
    from: '会诊结束之时',
    why: `${CONSULT_RULES}：图文对话等诊疗过程记录保存不少于 3 年`,
    end: 'deleted',
    endDetail: '删除消息与图片（含存储的文件）；已签署的回复按下一行保留',
  },
  {
    id: 'signed-opinions',
    what: '已签署的会诊意见：书面会诊报告、签名回复与补充说明、检查建议',
    period: { years: 15 },
    keptFor: '15 年',
    from: '签署之时',
    why: `${CONSULT_RULES}：诊疗病历记录保存不少于 15 年`,
    end: 'deleted',
    endDetail: '删除；期满前数据库拒绝修改或删除已签署的报告',
  },
  {
    id: 'consultation-applications',
    what: '会诊申请中的病情：主诉、现病史、既往史、过敏史、提问、院外检查',
    period: { years: 15 },
    keptFor: '15 年',
    from: '会诊结束之时',
    why: `${CONSULT_RULES}：申请是会诊意见所答的病历的一部分，与意见同保存 15 年`,
    end: 'anonymised',
    endDetail: '清空病情文字；订单、金额与状态记录随账本保留',
  },
  {
    id: 'ledger',
    what: '支付、退款、账本分录、交易记录、提现与对账记录，以及会诊订单的金额与状态',
    period: null,
    keptFor: '不清除（至少 30 年）',
    from: '记账之时',
    why: '会计档案管理办法（财政部 国家档案局令第79号）：会计凭证、会计账簿保管 30 年；账本只增不删，每一笔都参与对账核验',
    end: 'kept',
    endDetail: '不清除；注销账号后关联到“已注销用户”',
  },
  {
    id: 'withdrawal-payees',
    what: '提现时的收款人身份快照：姓名、身份证号（加密）、执业机构',
    period: { years: 10 },
    keptFor: '10 年',
    from: '提现结束之时',
    why: '税收征收管理法实施细则第二十九条：涉税资料保存 10 年；国务院令第810号第四条：平台按季度报送收入人员身份',
    end: 'anonymised',
    endDetail: '清空姓名、证件号与机构；提现金额随账本保留',
  },
  {
    id: 'grant-views',
    what: '授权查看记录（谁看过：查看者、时间、城市）',
    period: { years: 3 },
    keptFor: '3 年',
    from: '最后一次查看之时',
    why: '个人信息保护法第五十六条：个人信息处理情况记录至少保存三年',
    end: 'deleted',
    endDetail: '删除；注销账号时随授权立即删除',
  },
  {
    id: 'ai-analyses',
    what: 'AI 分析结果（只作专家草稿，从不给患者看）',
    period: { years: 1 },
    keptFor: '1 年',
    from: '申请之时',
    why: `${PIPL_19}；签署的会诊意见自己记录了哪些字段起于 AI 草稿`,
    end: 'deleted',
    endDetail: '删除；注销账号或删除检查时立即删除',
  },
  {
    id: 'deleted-accounts',
    what: '已注销账号的匿名行（“已注销用户”）与同意过的协议版本',
    period: null,
    keptFor: '长期（不再能识别个人）',
    from: '注销之时',
    why: '个人信息保护法第四十七条：注销即删除个人信息；依法须保留的记录（上面各行）要指向一个不再是人的账号；匿名化信息不属于个人信息（第七十三条）',
    end: 'anonymised',
    endDetail: '注销时匿名化（无手机号、密码、微信、头像、性别）；清理任务持续确保其保持匿名',
  },
  {
    id: 'unattached-uploads',
    what: '上传后未被使用的文件：反馈图片、运营素材',
    period: { days: 1 },
    keptFor: '1 天',
    from: '上传之时',
    why: PIPL_19,
    end: 'deleted',
    endDetail: '删除记录与文件',
  },
  {
    id: 'consultation-picture-drafts',
    what: '上传后未用于任何会诊的会诊图片',
    period: { days: 30 },
    keptFor: '30 天',
    from: '上传之时',
    why: `${PIPL_19}；申请草稿可在手机上保留数日，30 天内提交仍可用`,
    end: 'deleted',
    endDetail: '删除记录与文件',
  },
  {
    id: 'expert-applications',
    what: '已注销账号的专家认证材料（证书照片与申请）',
    period: { days: 0 },
    keptFor: '注销后下一次清理（10 分钟内）',
    from: '注销之时',
    why: '个人信息保护法第四十七条；没有法规要求平台保留离开的医生的证书图片',
    end: 'deleted',
    endDetail: '删除照片文件、记录与申请；运营审核记录（无证书内容）保留',
  },
  {
    id: 'consents',
    what: '同意与撤回记录（隐私与授权）',
    period: { years: 15 },
    keptFor: '撤回或注销后 15 年',
    from: '同意被撤回之时；账号注销的，自注销之时',
    why: '个人信息保护法第十三、十四条：处理健康信息须取得单独同意，平台须能证明；与依据同意形成、保存最久的会诊意见同期',
    end: 'deleted',
    endDetail: '删除该项同意的全部记录；仍有效的同意一直保留',
  },
  {
    id: 'export-archives',
    what: '导出文件（导出我的数据）',
    period: { hours: 24 },
    keptFor: '24 小时',
    from: '生成之时',
    why: '个人信息保护法第四十五条：副本交给本人；下载链接 24 小时失效，过期的副本不再留在服务器',
    end: 'deleted',
    endDetail: '删除文件',
  },
] as const satisfies readonly RetentionRule[]

export type RetentionRuleId = (typeof RETENTION_RULES)[number]['id']

export const RETENTION_RULE_IDS = RETENTION_RULES.map((rule) => rule.id) as [
  RetentionRuleId,
  ...RetentionRuleId[],
]

/** The rule of that id (the ids are this file's own). */
export function retentionRule(id: RetentionRuleId): RetentionRule {
  return RETENTION_RULES.find((rule) => rule.id === id)!
}

/**
 * Subtracts (or, with sign 1, adds) a period on the UTC calendar. `{ months: 12 }` from 2031-03-01 is
 * 2032-03-01 whatever the leap days in between, as a person reads "12 个月".
 */
export function shiftByPeriod(
  at: Date,
  period: Exclude<RetentionPeriod, null>,
  sign: 1 | -1,
): Date {
  const d = new Date(at.getTime())
  if ('years' in period) d.setUTCFullYear(d.getUTCFullYear() + sign * period.years)
  else if ('months' in period) d.setUTCMonth(d.getUTCMonth() + sign * period.months)
  else if ('days' in period) d.setUTCDate(d.getUTCDate() + sign * period.days)
  else d.setUTCHours(d.getUTCHours() + sign * period.hours)
  return d
}

/** The day in China (UTC+8, no daylight saving) of an ISO time: 2029-05-03. */
export function chinaDay(iso: string): string {
  return new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 10)
}

/**
 * What would remain of this account after deletion, one item per rule that keeps something of it.
 * `count` is how many of the person's records it covers (0 for items that are not counted); `until`
 * is when the last of them goes (null: no end).
 */
export const KeptAfterDeletionSchema = z.object({
  rule: z.enum(RETENTION_RULE_IDS),
  /** Whose side the records are on, for consultations: as the patient who asked, or as the expert. */
  role: z.nullable(z.enum(['patient', 'expert'])),
  count: z.number(),
  until: z.nullable(z.string()),
})
export type KeptAfterDeletion = z.infer<typeof KeptAfterDeletionSchema>

export const RetentionAnswerSchema = z.object({
  keptAfterDeletion: z.array(KeptAfterDeletionSchema),
})
export type RetentionAnswer = z.infer<typeof RetentionAnswerSchema>

export const getRetention = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/account/retention',
  input: z.object({}),
  output: RetentionAnswerSchema,
  auth: true,
  summary: '数据保留期限：注销本账号后仍将保留的记录及保留到哪天',
})

const ROLE_WORDS = { patient: '您作为患者', expert: '您作为专家' } as const

/** One kept item as the deletion page says it. */
export function keptLine(item: KeptAfterDeletion): string {
  const rule = retentionRule(item.rule)
  const until = item.until ? chinaDay(item.until) : null
  const role = item.role ? ROLE_WORDS[item.role] : '您'
  // "最晚" only when several records end on different days.
  const by = until ? `${item.count > 1 ? '最晚' : ''}保留至 ${until}` : ''
  switch (item.rule) {
    case 'consultation-conversations':
      return `${role}的 ${item.count} 次会诊的对话与图片将${by}（会诊结束后 3 年），之后删除`
    case 'signed-opinions':
      return `${role}的会诊中 ${item.count} 份已签署的回复或报告将${by}（签署后 15 年），之后删除`
    case 'consultation-applications':
      return `${role}的 ${item.count} 次会诊申请中的病情描述将${by}（会诊结束后 15 年），之后清空`
    case 'ledger':
      return `${role}的 ${item.count} 笔会诊订单的支付、退款与账本记录将按会计档案要求长期保留，关联到“已注销用户”`
    case 'withdrawal-payees':
      return `您的 ${item.count} 笔提现记录随账本保留；其中的收款人姓名、身份证号（加密）与执业机构${by}（提现结束后 10 年），之后清空`
    case 'security-events':
      return `您的登录记录等安全日志（含本次注销）将${by}（12 个月），之后删除`
    case 'deleted-accounts':
      return '账号本身以“已注销用户”匿名保留，以及您同意过的协议版本和时间：用于证明当时的同意，不含个人内容'
    default:
      return `${rule.what}：${rule.keptFor}${by ? `，${by}` : ''}`
  }
}
