/**
 * What account deletion removes and keeps, as the delete page explains it. Kept in step with the
 * server README ("Account deletion: what is removed and what is kept"), the statement of record.
 */
export const DELETED_ITEMS = [
  '个人资料：昵称、头像、性别、手机号、密码和微信绑定（账号显示为“已注销用户”）',
  '实名信息：绑定的身份证',
  '您上传的文件，以及通知设置、使用统计和扫码登录记录',
  '所有设备的登录状态立即失效',
] as const

export const KEPT_ITEMS = [
  '您同意过的协议版本和时间：用于证明当时的同意，不含个人内容',
  '医生或医院依法须保存的诊疗记录（如咨询及回复、报告）：关联到“已注销用户”，不再作为您的信息展示',
] as const

export const AFTER_DELETION =
  '注销后账号无法恢复；该手机号和微信可以重新注册，但为新账号，原有数据不会带回。'
