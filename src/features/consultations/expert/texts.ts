/** Every word 患者咨询 shows, in one place. */
export const EXPERT_TEXTS = {
  empty: {
    waiting: '暂无待接诊的咨询',
    active: '暂无进行中的咨询',
    done: '暂无已完成的咨询',
  },
  accept: '接诊',
  decline: '不接诊',
  acceptTitle: '接诊',
  acceptContent: (name: string) =>
    `确认接诊${name}的咨询？接诊后请在承诺时间内回复，超时未回复患者将获得全额退款。`,
  accepted: '已接诊',
  declineTitle: '不接诊',
  declineContent: '确认不接诊？患者会立即获得全额退款，并看到您填写的原因。',
  declined: '已拒绝，患者已获全额退款',
  reasonLabel: '不接诊原因',
  reasonPlaceholder: '不接诊原因（必填，患者会看到它，如：资料不足以判断、非本人擅长方向）',
  confirmDecline: '确认不接诊',
  cancel: '取消',
  unread: '有新消息',
  disputed: '投诉处理中',
  price: '费用',
  ageUnknown: '年龄未知',
  sex: { male: '男', female: '女', unknown: '性别未知' },
} as const
