import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { parse } from '../../dicom'
import { DEMO_HOSPITAL_KEYS } from '../hospitals'
import { DEMO_ACCOUNTS, findUserByMobile, idCardCheckChar } from '../identity'
import { bindIdCard } from '../profile'
import {
  type DemoPatient,
  type DemoStudy,
  type DemoStudyInput,
  demoBrainMr,
  demoChestCt,
  demoChestDxJpeg,
  demoHeadCtRle,
} from './phantoms'
import { DEMO_REPORTS, type DemoReport } from './reports'

/*
 * The demo patient's records, pushed the way a hospital pushes them: DICOM over STOW-RS and reports
 * as FHIR DiagnosticReport, each with its hospital's demo API key, through the server's own routes
 * (app.inject), never by inserting rows. Runs once per database after the app is ready. Several
 * processes start at once behind a balancer: the one that claims DEMO_RECORDS_CLAIM pushes, the
 * others leave it to it (pushing twice stored every study twice, and one process's final report
 * refused the other's preliminary). A claim whose process died is taken over after
 * DEMO_RECORDS_CLAIM_STALE_MS; one that failed is given up at once, so the next start tries again.
 */

export const DEMO_RECORDS_MARKER = 'demo-records'
/** seed_runs row held while one process pushes the demo records. */
export const DEMO_RECORDS_CLAIM = 'demo-records:pushing'
/** Far longer than a push takes (seconds; a minute on a loaded machine). */
const DEMO_RECORDS_CLAIM_STALE_MS = 10 * 60_000

/** A valid but synthetic resident ID number (GB 11643 check digit): the demo patient's bound card. */
const FIRST_17 = '11010119900307002'
export const DEMO_PATIENT_ID_NUMBER = FIRST_17 + idCardCheckChar(FIRST_17)
export const DEMO_PATIENT_NAME = '演示患者'

const demoPatient: DemoPatient = {
  name: DEMO_PATIENT_NAME,
  idNumber: DEMO_PATIENT_ID_NUMBER,
  phone: DEMO_ACCOUNTS[0].mobile,
  sex: 'M',
  birthDate: '19900307',
}

/**
 * Someone the demo patient does not match by identity (no resident ID recorded), whose exam the
 * hospital recorded with the demo patient's phone: the README's 影像查询 walk-through claims it.
 */
export const DEMO_QUERY_EXAM = {
  hospitalId: 'demo-hospital-01',
  hospitalName: '示例市第一人民医院',
  accessionNumber: 'DR20261118021',
  patientName: '王演示',
}

interface DemoExamPlan {
  hospitalKey: string
  institution: string
  make: (input: DemoStudyInput) => DemoStudy | Promise<DemoStudy>
  patient: DemoPatient
  accessionNumber: string
  date: string
  time: string
  /** The reports to send, in order (an amended report is sent after its final version). */
  reports: DemoReport[]
  /** Key images of its reports: a slice (0-based file of the study) and what the report says of it. */
  keyImages?: { slice: number; comment: string }[]
}

const key = (hospitalId: string) => DEMO_HOSPITAL_KEYS.find((k) => k.hospitalId === hospitalId)!.key

export const DEMO_EXAMS: readonly DemoExamPlan[] = [
  {
    hospitalKey: key('demo-hospital-01'),
    institution: '示例市第一人民医院',
    make: demoBrainMr,
    patient: demoPatient,
    accessionNumber: 'MR20261102001',
    date: '20261102',
    time: '091500',
    reports: [DEMO_REPORTS.brainMr],
  },
  {
    hospitalKey: key('demo-hospital-02'),
    institution: '示例市中心医院',
    make: demoChestCt,
    patient: demoPatient,
    accessionNumber: 'CT20261015007',
    date: '20261015',
    time: '143000',
    reports: [
      DEMO_REPORTS.chestCtPreliminary,
      DEMO_REPORTS.chestCtFinal,
      DEMO_REPORTS.chestCtAmended,
    ],
    // The phantom's nodule is on the 7th slice (z 32.5 mm); the 13th shows the heart and aorta.
    keyImages: [
      { slice: 6, comment: '右肺上叶后段实性结节（约 8 mm），最大层面' },
      { slice: 12, comment: '纵隔层面：心影及主动脉未见异常' },
    ],
  },
  {
    hospitalKey: key('demo-hospital-03'),
    institution: '示例大学附属医院',
    make: demoChestDxJpeg,
    patient: demoPatient,
    accessionNumber: 'DR20260920012',
    date: '20260920',
    time: '103000',
    reports: [DEMO_REPORTS.chestDx],
  },
  {
    // Images but no report yet: the report is still being written.
    hospitalKey: key('demo-hospital-01'),
    institution: '示例市第一人民医院',
    make: demoHeadCtRle,
    patient: demoPatient,
    accessionNumber: 'CT20261120003',
    date: '20261120',
    time: '160500',
    reports: [],
  },
  {
    hospitalKey: key(DEMO_QUERY_EXAM.hospitalId),
    institution: DEMO_QUERY_EXAM.hospitalName,
    make: demoChestDxJpeg,
    patient: {
      name: DEMO_QUERY_EXAM.patientName,
      idNumber: 'MRN0032817',
      phone: DEMO_ACCOUNTS[0].mobile,
      sex: 'F',
      birthDate: '19640812',
    },
    accessionNumber: DEMO_QUERY_EXAM.accessionNumber,
    date: '20261118',
    time: '084500',
    reports: [DEMO_REPORTS.queryDx],
  },
]

/** A STOW-RS body: one application/dicom part per file. */
export function stowBody(files: Buffer[]): { body: Buffer; contentType: string } {
  const boundary = `demo-${randomBytes(12).toString('hex')}`
  const parts = files.flatMap((file) => [
    Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`),
    file,
    Buffer.from('\r\n'),
  ])
  return {
    body: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/related; type="application/dicom"; boundary=${boundary}`,
  }
}

export interface DemoRecordsReport {
  ran: boolean
  studies: number
  reports: number
}

export async function seedDemoRecords(app: FastifyInstance): Promise<DemoRecordsReport> {
  const none = { ran: false, studies: 0, reports: 0 }
  if (!app.config.demoMode) return none
  const db = app.db
  const patient = await findUserByMobile(db, DEMO_ACCOUNTS[0].mobile)
  if (!patient || !(await claimDemoRecords(app))) return none
  try {
    return await pushDemoRecords(app, patient.id)
  } finally {
    // Done (the marker is written) or failed (the next start tries again): the claim goes.
    await db.deleteFrom('seed_runs').where('name', '=', DEMO_RECORDS_CLAIM).execute()
  }
}

/**
 * Whether this process is to push the records: not yet done, and nobody else pushing. The claim is
 * written first and the marker read after it, in one transaction: a process finishing meanwhile
 * holds the claim row until its marker is committed, so the marker is seen.
 */
async function claimDemoRecords(app: FastifyInstance): Promise<boolean> {
  const now = app.now()
  const staleBefore = new Date(now.getTime() - DEMO_RECORDS_CLAIM_STALE_MS).toISOString()
  return app.db.transaction().execute(async (trx) => {
    const claim = await trx
      .insertInto('seed_runs')
      .values({ name: DEMO_RECORDS_CLAIM, ran_at: now.toISOString() })
      .onConflict((conflict) =>
        conflict
          .column('name')
          .doUpdateSet({ ran_at: now.toISOString() })
          .where('seed_runs.ran_at', '<', staleBefore),
      )
      .executeTakeFirst()
    if (Number(claim.numInsertedOrUpdatedRows ?? 0n) === 0) return false
    const done = await trx
      .selectFrom('seed_runs')
      .select('name')
      .where('name', '=', DEMO_RECORDS_MARKER)
      .executeTakeFirst()
    if (done) await trx.deleteFrom('seed_runs').where('name', '=', DEMO_RECORDS_CLAIM).execute()
    return !done
  })
}

async function pushDemoRecords(
  app: FastifyInstance,
  patientId: string,
): Promise<DemoRecordsReport> {
  const db = app.db

  // The demo patient's bound card: what matches the hospitals' pushes to the account.
  await bindIdCard(
    db,
    app.personalCipher,
    patientId,
    { realName: DEMO_PATIENT_NAME, idCard: DEMO_PATIENT_ID_NUMBER },
    app.now(),
  )

  let studies = 0
  let reports = 0
  for (const plan of DEMO_EXAMS) {
    const study = await plan.make({
      patient: plan.patient,
      accessionNumber: plan.accessionNumber,
      date: plan.date,
      time: plan.time,
      institution: plan.institution,
    })
    const { body, contentType } = stowBody(study.files)
    const stored = await app.inject({
      method: 'POST',
      url: '/dicomweb/studies',
      headers: {
        authorization: `Bearer ${plan.hospitalKey}`,
        'content-type': contentType,
        accept: 'application/dicom+json',
        // Wait for the ingest job's answer (a loaded machine may take longer than STOW's 5 s).
        prefer: 'wait=60',
      },
      payload: body,
    })
    if (stored.statusCode !== 200) {
      throw new Error(`demo STOW-RS answered ${stored.statusCode}: ${stored.body.slice(0, 300)}`)
    }
    studies += 1
    const keyImages = (plan.keyImages ?? []).map(({ slice, comment }) => {
      const instance = parse(study.files[slice]!)
      return {
        seriesUid: instance.seriesInstanceUid,
        sopInstanceUid: instance.sopInstanceUid,
        comment,
      }
    })
    for (const report of plan.reports) {
      const resource = report.resource({
        studyUid: study.studyUid,
        accessionNumber: plan.accessionNumber,
        patient: plan.patient,
        date: plan.date,
        time: plan.time,
        ...(keyImages.length ? { keyImages } : {}),
      })
      const sent = await app.inject({
        method: 'POST',
        url: '/fhir/DiagnosticReport',
        headers: {
          authorization: `Bearer ${plan.hospitalKey}`,
          'content-type': 'application/fhir+json',
          accept: 'application/fhir+json',
        },
        payload: JSON.stringify(resource),
      })
      if (sent.statusCode !== 200 && sent.statusCode !== 201) {
        throw new Error(`demo FHIR answered ${sent.statusCode}: ${sent.body.slice(0, 500)}`)
      }
      reports += 1
    }
  }
  await db
    .insertInto('seed_runs')
    .values({ name: DEMO_RECORDS_MARKER, ran_at: app.now().toISOString() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute()
  return { ran: true, studies, reports }
}
