import type { ConsultCard, ConsultDetail, ConsultMessage } from '@/services/consultations'

export const CARD: ConsultCard = {
  id: 'c1',
  service: 'imaging',
  serviceLabel: '影像会诊',
  state: 'in-progress',
  stateLabel: '进行中',
  expert: {
    id: 'e1',
    name: '王主任',
    photoPath: null,
    title: 'chief',
    titleLabel: '主任医师',
    hospitalName: '示例市第一人民医院',
    department: '放射科',
  },
  person: {
    personId: 'p1',
    nameMasked: '张*',
    sex: 'male',
    age: 45,
    relationLabel: '本人',
  },
  chiefComplaint: '体检发现肺结节 2 周',
  priceFen: 20000,
  createdAt: '2026-11-20T02:00:00.000Z',
  deadline: '2026-11-23T02:00:00.000Z',
  deadlineLabel: '回复剩余',
  unread: 0,
  disputed: false,
}

const NO_ACTIONS = {
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
    ...CARD,
    role: 'patient',
    presentIllness: '',
    pastHistory: '',
    allergies: '',
    questions: '结节需要手术吗？',
    seenOffline: true,
    offlinePictures: [],
    externalExams: [],
    records: [
      {
        kind: 'exam',
        id: 'x1',
        examId: 'x1',
        title: '胸部CT平扫',
        hospitalName: '示例市第一人民医院',
        studyDate: '2026-11-01',
        modalities: ['CT'],
        private: false,
      },
    ],
    grant: {
      id: 'g1',
      status: 'active',
      statusLabel: '生效中',
      expiresAt: '2026-12-30T00:00:00.000Z',
    },
    events: [],
    declineReason: null,
    followupLimit: 3,
    followupsUsed: 0,
    adopted: false,
    rating: null,
    complaint: null,
    public: false,
    actions: { ...NO_ACTIONS, send: true },
    order: {
      orderNo: 'o1',
      priceFen: 20000,
      expertFen: 16000,
      platformFen: 4000,
      provider: 'demo',
      paymentState: 'paid',
      paidAt: '2026-11-20T02:01:00.000Z',
      payBy: '2026-11-20T02:15:00.000Z',
      refunds: [],
      refundedFen: 0,
    },
    ...overrides,
  }
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
