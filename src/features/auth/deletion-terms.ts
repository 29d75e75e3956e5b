/**
 * What account deletion removes, as the delete page explains it. Kept in step with the server README
 * ("Account deletion: what is removed and what is kept"), the statement of record. What it keeps,
 * and until when, is the server's answer from the retention schedule (contract/main/retention.ts).
 */
export const DELETED_ITEMS = [
  '个人资料：昵称、头像、性别、手机号、密码和微信绑定（账号显示为“已注销用户”）',
  '实名信息：绑定的身份证',
  '您上传的文件，以及通知设置、使用统计和扫码登录记录',
  '您做出或收到的授权及其查看记录、影像书签与 AI 分析结果',
  '所有设备的登录状态立即失效',
] as const

export const AFTER_DELETION =
  '注销后账号无法恢复；该手机号和微信可以重新注册，但为新账号，原有数据不会带回。'

export const KEPT_TEXT = {
  heading: '将保留',
  loading: '正在查询注销后将保留的记录…',
  /** The person must see what stays before confirming: the form waits for it. */
  notShown: '请先查看注销后将保留的记录，再注销',
  scheduleToggle: '查看全部数据的保留期限',
  scheduleHide: '收起保留期限表',
} as const
