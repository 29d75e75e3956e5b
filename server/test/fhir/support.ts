import type { FastifyInstance } from 'fastify'
import { addHospital, issueHospitalKey } from '../../src/domain/hospitals'
import { createUser } from '../../src/domain/identity'
import { idCardCheckChar } from '../../src/domain/identity/id-card-number'
import { bindIdCard } from '../../src/domain/profile/id-cards'
import { buildTestApp } from '../helpers'

/** Shared by the FHIR tests; not a test file itself. */

export const RESIDENT_ID_SYSTEM = 'urn:oid:2.16.156.10011.1.1'

/** A valid (synthetic) resident ID number: region 110101, the birth date, a sequence, its check. */
export function residentId(birth = '19900307', sequence = 123): string {
  const first17 = `110101${birth}${String(sequence).padStart(3, '0')}`
  return first17 + idCardCheckChar(first17)
}

let uidCounter = 0
export function studyUid(): string {
  uidCounter += 1
  return `1.2.826.0.1.3680043.8.498.${process.pid}.${Date.now() % 100000}.${uidCounter}`
}

let mobileCounter = 0
export function freshMobile(): string {
  mobileCounter += 1
  return `196${String(process.pid % 10000).padStart(4, '0')}${String(mobileCounter).padStart(4, '0')}`
}

export interface ReportOptions {
  identifier?: string
  status?: string
  studyUid?: string
  idNumber?: string
  name?: string
  phone?: string
  conclusion?: string
  findings?: string
  accession?: string
  effective?: string
}

/** A DiagnosticReport as a hospital system would push it (contained Patient, findings as text). */
export function diagnosticReport(options: ReportOptions = {}): Record<string, unknown> {
  return {
    resourceType: 'DiagnosticReport',
    contained: [
      {
        resourceType: 'Patient',
        id: 'pat',
        identifier: [{ system: RESIDENT_ID_SYSTEM, value: options.idNumber ?? residentId() }],
        name: [{ text: options.name ?? '张三' }],
        telecom: [{ system: 'phone', value: options.phone ?? '13800138000', use: 'mobile' }],
        gender: 'male',
        birthDate: '1990-03-07',
      },
    ],
    identifier: [
      { system: 'http://hospital.example/report-id', value: options.identifier ?? 'R-0001' },
      {
        type: {
          coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'ACSN' }],
        },
        system: 'http://hospital.example/accession',
        value: options.accession ?? 'CT20261120001',
      },
    ],
    status: options.status ?? 'final',
    category: [
      {
        coding: [
          { system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'RAD', display: '放射' },
        ],
      },
    ],
    code: { text: '胸部CT平扫' },
    subject: { reference: '#pat' },
    effectiveDateTime: options.effective ?? '2026-11-20T09:30:00+08:00',
    issued: '2026-11-20T10:05:00+08:00',
    performer: [{ display: '李医生' }],
    resultsInterpreter: [{ display: '王主任' }],
    imagingStudy: [
      {
        identifier: { system: 'urn:dicom:uid', value: `urn:oid:${options.studyUid ?? studyUid()}` },
      },
    ],
    conclusion: options.conclusion ?? '双肺未见明显异常。',
    presentedForm: [
      {
        contentType: 'text/plain; charset=utf-8',
        title: '影像所见',
        data: Buffer.from(options.findings ?? '双肺纹理清晰，未见实变影。', 'utf8').toString(
          'base64',
        ),
      },
    ],
  }
}

export interface FhirWorld {
  app: FastifyInstance
  hospitalId: string
  key: string
  otherHospitalId: string
  otherKey: string
}

/** The app on a fresh database with two hospitals and a key each. */
export async function fhirWorld(): Promise<FhirWorld> {
  const app = await buildTestApp()
  const first = await addHospital(app.db, { name: 'FHIR 测试甲医院' }, app.now())
  const second = await addHospital(app.db, { name: 'FHIR 测试乙医院' }, app.now())
  const key = (await issueHospitalKey(app.db, first.id, app.now())).key
  const otherKey = (await issueHospitalKey(app.db, second.id, app.now())).key
  return { app, hospitalId: first.id, key, otherHospitalId: second.id, otherKey }
}

/** A patient account with the given ID card bound (real-name). */
export async function patientWithCard(app: FastifyInstance, idNumber: string, name: string) {
  const user = await createUser(app.db, { mobile: freshMobile(), now: app.now() })
  await bindIdCard(
    app.db,
    app.personalCipher,
    user.id,
    { realName: name, idCard: idNumber },
    app.now(),
  )
  return user
}

export function fhirHeaders(key: string, extra: Record<string, string> = {}) {
  return {
    authorization: `Bearer ${key}`,
    'content-type': 'application/fhir+json',
    accept: 'application/fhir+json',
    ...extra,
  }
}
