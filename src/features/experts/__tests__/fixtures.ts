import type { ExpertApplication } from '@/services/experts'

/** An application as the server answers it; a draft with nothing filled in unless told. */
export function application(overrides: Partial<ExpertApplication> = {}): ExpertApplication {
  return {
    id: 'app-1',
    status: 'draft',
    statusLabel: '草稿',
    hospitalId: null,
    hospitalName: null,
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
