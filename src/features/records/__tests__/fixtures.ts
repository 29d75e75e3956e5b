import type {
  ExamDetail,
  ExamSummary,
  ImageGroup,
  MyHospital,
  RecordOwner,
  ReportDetail,
  ReportListItem,
  SeriesSummary,
} from '@/services/records'

/** Answers shaped as contract/main/records.ts says, for page and component tests. */

export const HOSPITAL_A = { id: 'h-a', name: '四川省人民医院' }
export const HOSPITAL_B = { id: 'h-b', name: '华西医院' }

export function exam(n: number, overrides: Partial<ExamSummary> = {}): ExamSummary {
  return {
    id: `x${n}`,
    source: 'hospital',
    hospital: HOSPITAL_A,
    hospitalText: null,
    accessionNumber: `CT2026${n}`,
    studyUid: `1.2.3.${n}`,
    studyDate: '2026-11-20',
    studyTime: '09:30:00',
    modalities: ['CT'],
    bodyPart: 'CHEST',
    title: `胸部 CT 平扫 ${n}`,
    seriesCount: 2,
    instanceCount: 120,
    status: 'ready',
    statusLabel: '可查看',
    statusMessage: null,
    archived: false,
    report: {
      id: `r${n}`,
      status: 'final',
      statusLabel: '正式报告',
      issuedAt: '2026-11-20T03:00:00.000Z',
      read: true,
      private: false,
    },
    createdAt: '2026-11-20T02:00:00.000Z',
    ...overrides,
  }
}

export function group(
  hospital: ImageGroup['hospital'],
  exams: ExamSummary[],
  count = exams.length,
): ImageGroup {
  return {
    hospital,
    examCount: count,
    unreadReports: exams.filter((one) => one.report && !one.report.read).length,
    latestStudyDate: exams[0]?.studyDate ?? null,
    latest: exams,
  }
}

export function myHospital(ref: { id: string; name: string }, examCount = 1): MyHospital {
  return {
    ...ref,
    level: '三级甲等',
    province: '四川省',
    city: '成都市',
    address: '一环路西二段 32 号',
    examCount,
    reportCount: examCount,
    latestStudyDate: '2026-11-20',
  }
}

export function series(n: number, overrides: Partial<SeriesSummary> = {}): SeriesSummary {
  return {
    id: `s${n}`,
    seriesUid: `1.2.3.4.${n}`,
    modality: 'CT',
    seriesNumber: n,
    description: `轴位 ${n}`,
    bodyPart: 'CHEST',
    instanceCount: 60,
    thumbnailPath: `/dicomweb/studies/1.2.3/series/1.2.3.4.${n}/instances/9/thumbnail`,
    previewStatus: 'ready',
    previewMessage: null,
    ...overrides,
  }
}

/** The signed-in patient's own record (records say whose they are). */
export const SELF: RecordOwner = { personId: 'u-self', relation: 'self', label: '本人' }

export function examDetail(overrides: Partial<ExamDetail> = {}): ExamDetail {
  return {
    ...exam(1),
    owner: SELF,
    patientNameMasked: '张*',
    patientSex: 'M',
    patientBirthDate: '1980-01-02',
    description: '胸部 CT 平扫',
    notes: null,
    sizeBytes: 64 * 1024 * 1024,
    series: [series(1), series(2)],
    files: [],
    ...overrides,
  }
}

export function reportItem(n: number, overrides: Partial<ReportListItem> = {}): ReportListItem {
  return {
    id: `r${n}`,
    examId: `x${n}`,
    hospital: HOSPITAL_A,
    title: `胸部 CT 平扫 ${n}`,
    modalities: ['CT'],
    studyDate: '2026-11-20',
    status: 'final',
    statusLabel: '正式报告',
    issuedAt: '2026-11-20T03:00:00.000Z',
    read: true,
    private: false,
    archived: false,
    summary: '双肺未见明显异常',
    ...overrides,
  }
}

export function reportDetail(overrides: Partial<ReportDetail> = {}): ReportDetail {
  return {
    id: 'r1',
    examId: 'x1',
    owner: SELF,
    studyUid: '1.2.3',
    hospital: HOSPITAL_A,
    title: '胸部 CT 平扫',
    modalities: ['CT'],
    accessionNumber: 'CT20261',
    studyDate: '2026-11-20',
    studyTime: '09:30:00',
    patientNameMasked: '张*',
    status: 'final',
    statusLabel: '正式报告',
    version: 1,
    effectiveAt: '2026-11-20T01:30:00.000Z',
    issuedAt: '2026-11-20T03:00:00.000Z',
    updatedAt: '2026-11-20T03:00:00.000Z',
    read: true,
    private: false,
    archived: false,
    locked: false,
    findings: '双肺纹理清晰，未见实质性病变。',
    conclusion: '双肺未见明显异常。',
    performer: '李医生',
    reviewer: '王主任',
    history: [],
    ...overrides,
  }
}
