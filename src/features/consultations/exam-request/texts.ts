import { EXAM_REQUEST_MESSAGES, EXAM_REQUEST_NOTICE } from '@contract/main/exam-requests'

/** Every word the 检查申请单 pages and the conversation's card show, in one place. */
export const EXAM_REQUEST_TEXTS = {
  notice: EXAM_REQUEST_NOTICE,
  composeTitle: '开检查建议',
  composeHint:
    '建议患者到医院做的进一步检查。患者会在对话中收到，并可出示检查申请单到任一医院挂号。',
  examType: '检查类型',
  examName: '检查名称',
  examNamePlaceholder: '请填写检查名称，如 骨密度',
  bodyPart: '检查部位',
  bodyPartPlaceholder: '或填写其他部位',
  contrast: '造影剂（增强）',
  urgency: '紧急程度',
  reason: '检查理由',
  reasonPlaceholder: '写给接诊医生：为什么建议做这项检查、重点看什么',
  send: '发送',
  sending: '发送中…',
  sent: EXAM_REQUEST_MESSAGES.sent,
  // The form
  formTitle: '检查申请单',
  formSubtitle: '专家检查建议 · 请出示给医院挂号处',
  number: '申请单号',
  patient: '患者',
  sexAge: '性别 / 年龄',
  exam: '检查项目',
  expert: '建议专家',
  date: '开单日期',
  age: (age: number) => `${age} 岁`,
  unknown: '—',
  // The card
  cardBadge: '检查建议',
  cardOpen: '查看检查申请单 ›',
  openConversation: '返回对话',
} as const
