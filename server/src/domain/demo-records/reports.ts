import type { DemoPatient } from './phantoms'

/*
 * The demo's reports, as the FHIR R4 DiagnosticReport resources a hospital's RIS would send
 * (server/src/routes/fhir/README.md). Plain, plausible Chinese radiology wording; every text says it
 * is demo data describing a synthetic phantom, not a person.
 */

export interface DemoReportContext {
  studyUid: string
  accessionNumber: string
  patient: DemoPatient
  /** YYYYMMDD and HHMMSS of the exam */
  date: string
  time: string
  /** Slices the report points at (关键图像), sent as DiagnosticReport.media. */
  keyImages?: DemoKeyImage[]
}

export interface DemoKeyImage {
  seriesUid: string
  sopInstanceUid: string
  comment: string
}

export interface DemoReport {
  resource(context: DemoReportContext): Record<string, unknown>
}

const NOTE = '（演示数据：影像为合成体模，并非真实患者。）'

function isoAt(date: string, time: string, addMinutes: number): string {
  const at = new Date(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${time.slice(0, 2)}:${time.slice(2, 4)}:00+08:00`,
  )
  at.setMinutes(at.getMinutes() + addMinutes)
  // FHIR wants the hospital's own offset: shown as +08:00, not as UTC.
  const local = new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19)
  return `${local}+08:00`
}

function report(options: {
  reportNumber: string
  status: 'preliminary' | 'final' | 'amended'
  examName: string
  loinc: { code: string; display: string }
  findings: string
  conclusion: string
  reporter: string
  reviewer?: string
  issuedAfterMinutes: number
}): DemoReport {
  return {
    resource: (context) => {
      const { patient } = context
      const residentId = /^\d{17}[\dX]$/.test(patient.idNumber)
      return {
        resourceType: 'DiagnosticReport',
        contained: [
          {
            resourceType: 'Patient',
            id: 'patient',
            ...(residentId
              ? { identifier: [{ system: 'urn:oid:2.16.156.10011.1.1', value: patient.idNumber }] }
              : {}),
            name: [{ text: patient.name }],
            ...(patient.phone
              ? { telecom: [{ system: 'phone', value: patient.phone, use: 'mobile' }] }
              : {}),
            gender: patient.sex === 'F' ? 'female' : 'male',
            birthDate: `${patient.birthDate.slice(0, 4)}-${patient.birthDate.slice(4, 6)}-${patient.birthDate.slice(6, 8)}`,
          },
          { resourceType: 'Practitioner', id: 'reporter', name: [{ text: options.reporter }] },
          ...(options.reviewer
            ? [{ resourceType: 'Practitioner', id: 'reviewer', name: [{ text: options.reviewer }] }]
            : []),
          // Key images the way many RIS send them: a contained Media whose content.url is the
          // instance's WADO-RS address (relative: the demo's PACS is this server).
          ...(context.keyImages ?? []).map((image, index) => ({
            resourceType: 'Media',
            id: `key${index + 1}`,
            status: 'completed',
            content: {
              contentType: 'application/dicom',
              url: `/dicomweb/studies/${context.studyUid}/series/${image.seriesUid}/instances/${image.sopInstanceUid}`,
            },
          })),
        ],
        identifier: [
          { system: 'urn:demo:ris:report', value: options.reportNumber },
          {
            type: {
              coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'ACSN' }],
            },
            value: context.accessionNumber,
          },
        ],
        status: options.status,
        category: [
          {
            coding: [
              {
                system: 'http://terminology.hl7.org/CodeSystem/v2-0074',
                code: 'RAD',
                display: 'Radiology',
              },
            ],
          },
        ],
        code: {
          coding: [{ system: 'http://loinc.org', ...options.loinc }],
          text: options.examName,
        },
        subject: { reference: '#patient' },
        effectiveDateTime: isoAt(context.date, context.time, 0),
        issued: isoAt(context.date, context.time, options.issuedAfterMinutes),
        performer: [{ reference: '#reporter' }],
        ...(options.reviewer ? { resultsInterpreter: [{ reference: '#reviewer' }] } : {}),
        imagingStudy: [
          { identifier: { system: 'urn:dicom:uid', value: `urn:oid:${context.studyUid}` } },
        ],
        ...(context.keyImages?.length
          ? {
              media: context.keyImages.map((image, index) => ({
                comment: image.comment,
                link: { reference: `#key${index + 1}` },
              })),
            }
          : {}),
        presentedForm: [
          {
            contentType: 'text/plain; charset=utf-8',
            data: Buffer.from(options.findings + NOTE, 'utf8').toString('base64'),
          },
        ],
        conclusion: options.conclusion,
      }
    },
  }
}

const CHEST_CT_FINDINGS =
  '胸廓对称，气管居中，各叶段支气管通畅。右肺上叶后段见一实性结节，边界清楚，边缘光整，未见分叶及毛刺。' +
  '余两肺野未见实变及磨玻璃影。纵隔内未见肿大淋巴结，心影大小、形态正常，主动脉未见扩张。' +
  '双侧胸腔未见积液。所见骨质未见破坏。'

export const DEMO_REPORTS = {
  brainMr: report({
    reportNumber: 'RPT-MR-20261102-001',
    status: 'final',
    examName: '头颅 MR 平扫',
    loinc: { code: '24590-2', display: 'MR Brain WO contrast' },
    findings:
      '双侧大脑半球对称，灰白质分界清楚，脑实质内未见异常信号影。脑室系统大小、形态正常，中线结构居中。' +
      '脑沟、脑裂未见增宽。小脑、脑干未见异常。',
    conclusion: '头颅 MR 平扫未见明显异常。',
    reporter: '李明（演示）',
    reviewer: '王建国（演示）',
    issuedAfterMinutes: 180,
  }),
  chestCtPreliminary: report({
    reportNumber: 'RPT-CT-20261015-007',
    status: 'preliminary',
    examName: '胸部 CT 平扫',
    loinc: { code: '29252-4', display: 'CT Chest WO contrast' },
    findings: CHEST_CT_FINDINGS,
    conclusion: '右肺上叶实性结节，建议随访。',
    reporter: '赵磊（演示）',
    issuedAfterMinutes: 60,
  }),
  chestCtFinal: report({
    reportNumber: 'RPT-CT-20261015-007',
    status: 'final',
    examName: '胸部 CT 平扫',
    loinc: { code: '29252-4', display: 'CT Chest WO contrast' },
    findings: CHEST_CT_FINDINGS,
    conclusion: '右肺上叶实性结节，建议 6–12 个月后复查胸部 CT。',
    reporter: '赵磊（演示）',
    reviewer: '陈静（演示）',
    issuedAfterMinutes: 150,
  }),
  chestCtAmended: report({
    reportNumber: 'RPT-CT-20261015-007',
    status: 'amended',
    examName: '胸部 CT 平扫',
    loinc: { code: '29252-4', display: 'CT Chest WO contrast' },
    findings: CHEST_CT_FINDINGS.replace('见一实性结节', '见一实性结节，大小约 8 mm × 8 mm'),
    conclusion:
      '右肺上叶实性小结节（约 8 mm），建议 6 个月后低剂量胸部 CT 复查。（更正：补充结节大小及随访间隔）',
    reporter: '赵磊（演示）',
    reviewer: '陈静（演示）',
    issuedAfterMinutes: 1440,
  }),
  chestDx: report({
    reportNumber: 'RPT-DR-20260920-012',
    status: 'final',
    examName: '胸部正位 DR',
    loinc: { code: '36643-5', display: 'XR Chest 2V' },
    findings:
      '两肺纹理清晰，走行自然，两肺野未见明显实变影。心影大小、形态正常。双侧膈面光整，肋膈角锐利。',
    conclusion: '心、肺、膈未见明显异常。',
    reporter: '孙悦（演示）',
    reviewer: '周平（演示）',
    issuedAfterMinutes: 90,
  }),
  headCt: report({
    reportNumber: 'RPT-CT-SAMPLE',
    status: 'final',
    examName: '头颅 CT 平扫',
    loinc: { code: '30799-1', display: 'CT Head WO contrast' },
    findings:
      '颅骨骨质完整。脑实质密度均匀，灰白质分界清楚，未见异常密度影。脑室系统大小、形态正常，中线结构居中。',
    conclusion: '头颅 CT 平扫未见明显异常。',
    reporter: '李明（演示）',
    reviewer: '王建国（演示）',
    issuedAfterMinutes: 30,
  }),
  queryDx: report({
    reportNumber: 'RPT-DR-20261118-021',
    status: 'final',
    examName: '胸部正位 DR',
    loinc: { code: '36643-5', display: 'XR Chest 2V' },
    findings: '两肺纹理稍增多，未见明显实变影。心影不大。双侧肋膈角锐利。',
    conclusion: '两肺纹理稍增多，请结合临床。',
    reporter: '李明（演示）',
    reviewer: '王建国（演示）',
    issuedAfterMinutes: 120,
  }),
} as const
