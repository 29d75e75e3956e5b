import { useAppStore } from '@/stores/app-store'
import { useSessionStore } from '@/stores/session-store'
import { profile } from '@/services/__tests__/account-fixtures'
import type {
  ConsultCard,
  ConsultDetail,
  ConsultMessage,
  ConsultPeople,
  ConsultQuote,
  ConsultService,
} from '@/services/consultations'
import type { ExamSummary, ReportListItem } from '@/services/records'
import {
  type ConsultDraft,
  EMPTY_DRAFT,
  draftKey,
  useConsultDraftStore,
} from '../apply/draft-store'

/**
 * Consultation shapes as the contract describes them (demo-like, no real person), for every
 * consultation feature's tests: the application, the lists, the detail and the conversation.
 */

export function signIn(): void {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
}

export function resetDrafts(): void {
  useConsultDraftStore.setState({ drafts: {} })
  useConsultDraftStore.persist.clearStorage()
}

/** Puts a draft for u1 (profile()'s id) in the store, as a person who filled the first pages. */
export function seedDraft(service: ConsultService, overrides: Partial<ConsultDraft> = {}): void {
  useConsultDraftStore.getState().update(draftKey('u1', 'e1', service), {
    ...EMPTY_DRAFT,
    personId: 'p-self',
    personSelf: true,
    personLabel: '本人 张*',
    chiefComplaint: '体检发现肺结节 2 周',
    questions: '这个结节需要手术吗？',
    seenOffline: false,
    records: [
      {
        kind: 'exam',
        id: 'x1',
        examId: 'x1',
        title: '胸部 CT 平扫',
        detail: '示例市第一人民医院 · 2026-11-02',
        private: false,
      },
    ],
    ...overrides,
  })
}

export const expert = {
  id: 'e1',
  name: '李明华',
  photoPath: null,
  title: 'chief' as const,
  titleLabel: '主任医师',
  hospitalName: '示例市第一人民医院',
  department: '放射科',
}

export function quote(
  service: ConsultService,
  overrides: Partial<ConsultQuote> = {},
): ConsultQuote {
  const text = service === 'text'
  return {
    expert,
    service,
    serviceLabel: text ? '图文咨询' : '影像会诊',
    priceFen: text ? 3000 : 20000,
    expertFen: text ? 2400 : 16000,
    platformFen: text ? 600 : 4000,
    answerHours: text ? 48 : 72,
    followupLimit: 3,
    unavailable: null,
    consentVersion: '2026-11-29',
    consentText: '',
    notice: '',
    ...overrides,
  }
}

export function people(): ConsultPeople {
  return [
    {
      personId: 'p-self',
      nameMasked: '张*',
      sex: 'male',
      age: 45,
      relationLabel: '本人',
      idCardBound: true,
    },
    {
      personId: 'p-mum',
      nameMasked: '王*',
      sex: 'female',
      age: 70,
      relationLabel: '母亲',
      idCardBound: false,
    },
  ]
}

export function exam(n: number, overrides: Partial<ExamSummary> = {}): ExamSummary {
  return {
    id: `x${n}`,
    source: 'hospital',
    hospital: { id: 'h1', name: '示例市第一人民医院' } as ExamSummary['hospital'],
    hospitalText: null,
    accessionNumber: null,
    studyUid: null,
    studyDate: '2026-11-02',
    studyTime: null,
    modalities: ['CT'],
    bodyPart: null,
    title: n === 1 ? '胸部 CT 平扫' : `检查 ${n}`,
    seriesCount: 1,
    instanceCount: 10,
    status: 'ready',
    statusLabel: '可查看',
    statusMessage: null,
    archived: false,
    report: null,
    createdAt: '2026-11-02T02:00:00.000Z',
    ...overrides,
  }
}

export function report(n: number, overrides: Partial<ReportListItem> = {}): ReportListItem {
  return {
    id: `r${n}`,
    examId: `x${n}`,
    hospital: { id: 'h1', name: '示例市第一人民医院' } as ReportListItem['hospital'],
    title: n === 1 ? '胸部 CT 平扫报告' : `报告 ${n}`,
    modalities: ['CT'],
    studyDate: '2026-11-02',
    status: 'final',
    statusLabel: '正式报告',
    issuedAt: '2026-11-02T06:00:00.000Z',
    read: true,
    private: false,
    archived: false,
    summary: null,
    ...overrides,
  }
}

export function card(n: number, overrides: Partial<ConsultCard> = {}): ConsultCard {
  return {
    id: `c${n}`,
    service: 'text',
    serviceLabel: '图文咨询',
    state: 'waiting-accept',
    stateLabel: '待接诊',
    expert,
    person: {
      personId: 'p-self',
      nameMasked: '张*',
      sex: 'male',
      age: 45,
      relationLabel: '本人',
    },
    chiefComplaint: `咨询 ${n} 的主诉`,
    priceFen: 3000,
    createdAt: '2026-11-28T02:00:00.000Z',
    deadline: null,
    deadlineLabel: null,
    unread: 0,
    disputed: false,
    ...overrides,
  }
}

export const NO_ACTIONS: ConsultDetail['actions'] = {
  pay: false,
  cancel: false,
  accept: false,
  decline: false,
  send: false,
  answer: false,
  adopt: false,
  rate: false,
  complain: false,
  publish: false,
}

export function detail(overrides: Partial<ConsultDetail> = {}): ConsultDetail {
  return {
    ...card(1),
    role: 'patient',
    presentIllness: '',
    pastHistory: '',
    allergies: '',
    questions: '这个结节需要手术吗？',
    seenOffline: false,
    offlinePictures: [],
    externalExams: [],
    records: [
      {
        kind: 'exam',
        id: 'x1',
        examId: 'x1',
        title: '胸部 CT 平扫',
        hospitalName: '示例市第一人民医院',
        studyDate: '2026-11-02',
        modalities: ['CT'],
        private: false,
      },
    ],
    grant: {
      id: 'g1',
      status: 'active',
      statusLabel: '生效中',
      expiresAt: '2026-12-10T02:00:00.000Z',
    },
    events: [
      {
        state: 'pending-payment',
        label: '提交申请',
        actorLabel: '患者',
        note: null,
        at: '2026-11-28T02:00:00.000Z',
      },
    ],
    declineReason: null,
    followupLimit: 3,
    followupsUsed: 0,
    adopted: false,
    rating: null,
    complaint: null,
    public: false,
    actions: NO_ACTIONS,
    order: {
      orderNo: 'CO202611280001',
      priceFen: 3000,
      expertFen: 2400,
      platformFen: 600,
      provider: 'demo',
      paymentState: 'paid',
      paidAt: '2026-11-28T02:01:00.000Z',
      payBy: '2026-11-28T02:15:00.000Z',
      refunds: [],
      refundedFen: 0,
    },
    ...overrides,
  }
}

/** An 影像会诊 in progress: the conversation's and the expert's lists' usual case. */
export const IMAGING_CARD: ConsultCard = card(1, {
  service: 'imaging',
  serviceLabel: '影像会诊',
  state: 'in-progress',
  stateLabel: '进行中',
  chiefComplaint: '体检发现肺结节 2 周',
  priceFen: 20000,
  createdAt: '2026-11-20T02:00:00.000Z',
  deadline: '2026-11-23T02:00:00.000Z',
  deadlineLabel: '回复剩余',
})

/** IMAGING_CARD's detail, the patient able to send. */
export function imagingDetail(overrides: Partial<ConsultDetail> = {}): ConsultDetail {
  const base = detail()
  return detail({
    ...IMAGING_CARD,
    actions: { ...NO_ACTIONS, send: true },
    order: { ...base.order, priceFen: 20000, expertFen: 16000, platformFen: 4000 },
    ...overrides,
  })
}

export function message(seq: number, overrides: Partial<ConsultMessage> = {}): ConsultMessage {
  return {
    id: `m${seq}`,
    seq,
    kind: 'text',
    from: 'expert',
    mine: false,
    clientId: null,
    text: `消息 ${seq}`,
    picture: null,
    record: null,
    answer: null,
    signedAt: null,
    createdAt: `2026-11-20T03:0${seq % 10}:00.000Z`,
    read: true,
    ...overrides,
  }
}
