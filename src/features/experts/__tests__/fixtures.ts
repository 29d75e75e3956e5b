import type { ExpertCard, ExpertProfile, MyExpertSettings } from '@/services/expert-profiles'
import type { ExpertApplication, HospitalRequest } from '@/services/experts'

/** Demo-like experts as the contract describes them (no certificate numbers exist in these shapes). */
export function card(n: number, overrides: Partial<ExpertCard> = {}): ExpertCard {
  return {
    id: `e${n}`,
    name: n === 1 ? '李明华' : `专家${n}`,
    photoPath: null,
    title: 'chief',
    titleLabel: '主任医师',
    hospital: {
      id: 'h1',
      name: '示例市第一人民医院',
      level: '三级甲等',
      province: '北京市',
      city: '北京市',
      address: '示例路 1 号',
    },
    department: '放射科',
    specialities: ['肺结节', '胸部影像', '肺癌筛查'],
    accepting: true,
    services: [
      { kind: 'text', label: '图文咨询', enabled: true, priceFen: 3000, hours: 48 },
      { kind: 'imaging', label: '影像会诊', enabled: true, priceFen: 20050, hours: 72 },
    ],
    demo: true,
    ...overrides,
  }
}

export function expertProfile(overrides: Partial<ExpertProfile> = {}): ExpertProfile {
  return {
    ...card(1),
    introduction: '从事胸部影像诊断二十年，擅长肺结节的随访与鉴别。',
    certifiedAt: '2026-11-20T02:00:00.000Z',
    stats: null,
    favouriteCount: 5,
    favourited: false,
    self: false,
    ...overrides,
  }
}

export function settings(overrides: Partial<MyExpertSettings> = {}): MyExpertSettings {
  return {
    profile: expertProfile({ self: true }),
    dailyLimit: 20,
    followupLimit: 3,
    suspension: null,
    pendingChange: null,
    ...overrides,
  }
}

/** An application as the server answers it; a draft with nothing filled in unless told. */
export function application(overrides: Partial<ExpertApplication> = {}): ExpertApplication {
  return {
    id: 'app-1',
    status: 'draft',
    statusLabel: '草稿',
    hospitalId: null,
    hospitalName: null,
    hospitalRequest: null,
    department: null,
    title: null,
    titleLabel: null,
    practiceCertificateNo: null,
    qualificationCertificateNo: null,
    practiceCategory: null,
    practiceCategoryLabel: null,
    practiceScope: null,
    specialities: [],
    introduction: '',
    photos: [],
    rejectReason: null,
    agreementVersion: null,
    submittedAt: null,
    decidedAt: null,
    updatedAt: '2026-11-28T02:00:00.000Z',
    ...overrides,
  }
}

const PHOTOS: ExpertApplication['photos'] = [
  {
    id: 'p1',
    kind: 'practice-info',
    kindLabel: '执业证书信息页',
    path: '/main/experts/photos/p1',
    width: 800,
    height: 600,
  },
  {
    id: 'p2',
    kind: 'practice-registration',
    kindLabel: '执业证书注册页',
    path: '/main/experts/photos/p2',
    width: 800,
    height: 600,
  },
]

/** A draft with every field and both required photos: ready to submit. */
export function completeDraft(overrides: Partial<ExpertApplication> = {}): ExpertApplication {
  return application({
    hospitalId: 'demo-hospital-01',
    hospitalName: '示例市第一人民医院',
    department: '放射科',
    title: 'attending',
    titleLabel: '主治医师',
    practiceCertificateNo: '110101199003070',
    qualificationCertificateNo: '199911110000000000000000001',
    practiceCategory: 'clinical',
    practiceCategoryLabel: '临床',
    practiceScope: '医学影像和放射治疗专业',
    specialities: ['胸部影像', '肺结节'],
    introduction: '从事胸部影像诊断十年。',
    photos: PHOTOS,
    ...overrides,
  })
}

/** 找不到我的医院？'s request as the server answers it: waiting (待添加) unless told. */
export function hospitalRequest(overrides: Partial<HospitalRequest> = {}): HospitalRequest {
  return {
    id: 'hr-1',
    name: '示例县人民医院',
    province: '河北省',
    city: '石家庄市',
    address: null,
    status: 'pending',
    statusLabel: '待添加',
    hospitalId: null,
    hospitalName: null,
    declineReason: null,
    createdAt: '2026-11-28T02:00:00.000Z',
    decidedAt: null,
    ...overrides,
  }
}
