import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { before, test } from 'node:test'
import { envelope } from '@contract/envelope'
import { type KeyImage, ReportDetailSchema } from '@contract/main/records'
import type { DB } from '../../src/db'
import { createSession } from '../../src/domain/identity'
import { DEMO_ACCOUNTS } from '../../src/domain/identity/demo'
import { findUserByMobile } from '../../src/domain/identity/users'
import { seedDemoRecords } from '../../src/domain/demo-records/seed'
import { KEY_IMAGE_MESSAGES, KEY_IMAGES_MAX } from '../../src/domain/reports/reports'
import {
  diagnosticReport,
  fhirHeaders,
  type FhirWorld,
  fhirWorld,
  patientWithCard,
  residentId,
  studyUid,
} from '../fhir/support'
import { buildTestApp } from '../helpers'
import { insertSeries } from './patient-support'

/*
 * Key images (关键图像): a hospital's DiagnosticReport.media, validated on push (a Chinese
 * OperationOutcome naming the element), kept with the report version, and answered on the patient's
 * report detail as the exact series / SOP / frame, only for images of the report's own exam.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- FHIR JSON read field by field
type Json = Record<string, any>

let world: FhirWorld
let token: string
let strangerToken: string
let strangerMobile: string
let userId: string
const ID = residentId('19800101', 777)
const STUDY = studyUid()
const OTHER_STUDY = studyUid()

let uidCounter = 0
const uid = () => `1.2.826.0.1.3680043.10.98.${process.pid}.${(uidCounter += 1)}`
const SERIES = uid()
const SOP = [uid(), uid(), uid()]
const CINE = uid()

async function examIdOf(db: DB, study: string): Promise<string> {
  const exam = await db
    .selectFrom('exams')
    .select('id')
    .where('study_uid', '=', study)
    .executeTakeFirstOrThrow()
  return exam.id
}

const wado = (study: string, series: string, sop: string, tail = '') =>
  `https://pacs.hospital.example/dicomweb/studies/${study}/series/${series}/instances/${sop}${tail}`

function withMedia(
  options: Parameters<typeof diagnosticReport>[0],
  media: unknown[],
  contained: unknown[] = [],
): Json {
  const report = diagnosticReport(options) as Json
  return { ...report, contained: [...report.contained, ...contained], media }
}

async function push(body: unknown, key = world.key) {
  return world.app.inject({
    method: 'POST',
    url: '/fhir/DiagnosticReport',
    headers: fhirHeaders(key),
    payload: JSON.stringify(body),
  })
}

async function detail(reportId: string, bearer = token) {
  const res = await world.app.inject({
    url: `/main/reports/${reportId}`,
    headers: { authorization: `Bearer ${bearer}` },
  })
  return res
}

function keyImagesOf(body: string): KeyImage[] {
  const parsed = envelope(ReportDetailSchema).parse(JSON.parse(body)) as {
    data: { keyImages?: KeyImage[] }
  }
  return parsed.data.keyImages ?? []
}

const THREE_SHAPES = [
  // A contained Media whose content.url is the WADO-RS address of frame 3 of a multi-frame image.
  { link: { reference: '#key1' }, comment: '右肺上叶结节，最大层面' },
  // The WADO-RS address itself, relative, no frame (frame 1).
  { link: { reference: `/dicomweb/studies/${STUDY}/series/${SERIES}/instances/${SOP[1]}` } },
  // The SOP instance by its DICOM identifier; the comment is the report's own.
  {
    link: { type: 'Media', identifier: { system: 'urn:dicom:uid', value: `urn:oid:${SOP[2]}` } },
    comment: '纵隔淋巴结',
  },
]
const KEY1 = {
  resourceType: 'Media',
  id: 'key1',
  status: 'completed',
  content: { contentType: 'application/dicom', url: wado(STUDY, SERIES, CINE, '/frames/3') },
}

let reportId: string
let examId: string
/** A key image of SERIES as the detail answers it (comment apart). */
const image = (sop: string, instanceNumber: number) => ({
  examId,
  seriesUid: SERIES,
  sopInstanceUid: sop,
  frame: 1,
  instanceNumber,
  seriesDescription: null,
})

before(async () => {
  world = await fhirWorld()
  const user = await patientWithCard(world.app, ID, '周九')
  userId = user.id
  token = (await createSession(world.app.db, user.id, world.app.now())).access_token
  const stranger = await patientWithCard(world.app, residentId('19800101', 778), '吴十')
  strangerToken = (await createSession(world.app.db, stranger.id, world.app.now())).access_token
  strangerMobile = stranger.mobile!

  const res = await push(
    withMedia({ studyUid: STUDY, idNumber: ID, name: '周九' }, THREE_SHAPES, [KEY1]),
  )
  assert.equal(res.statusCode, 201, res.body)
  reportId = res.json().id
  examId = await examIdOf(world.app.db, STUDY)
})

test('the three accepted shapes are stored with the version and answered back to the hospital', async () => {
  const res = await world.app.inject({
    url: `/fhir/DiagnosticReport/${reportId}`,
    headers: fhirHeaders(world.key),
  })
  assert.equal(res.statusCode, 200, res.body)
  const body = res.json()
  assert.deepEqual(body.media, THREE_SHAPES)
  assert.deepEqual(
    body.contained.find((item: Json) => item.resourceType === 'Media'),
    KEY1,
  )
  const version = await world.app.db
    .selectFrom('report_versions')
    .select('resource_json')
    .where('report_id', '=', reportId)
    .executeTakeFirstOrThrow()
  assert.deepEqual(JSON.parse(version.resource_json).media, THREE_SHAPES)
})

test('images not received yet are left out; once they arrive the detail names series, SOP and frame', async () => {
  let res = await detail(reportId)
  assert.equal(res.statusCode, 200, res.body)
  assert.deepEqual(keyImagesOf(res.body), [], 'the report came before its images')

  await insertSeries(world.app.db, examId, SERIES, [
    { sop: CINE, frames: 5 },
    { sop: SOP[1]! },
    { sop: SOP[2]! },
  ])
  res = await detail(reportId)
  assert.deepEqual(keyImagesOf(res.body), [
    {
      examId,
      seriesUid: SERIES,
      sopInstanceUid: CINE,
      frame: 3,
      comment: '右肺上叶结节，最大层面',
      instanceNumber: 1,
      seriesDescription: null,
    },
    { ...image(SOP[1]!, 2), comment: null },
    { ...image(SOP[2]!, 3), comment: '纵隔淋巴结' },
  ])
  res = await detail(reportId, strangerToken)
  assert.equal(res.statusCode, 404, 'a stranger sees neither the report nor its images')
})

test('only images of the report’s own exam: the same SOP in another exam, another series or a frame the image lacks are left out', async () => {
  const db = world.app.db
  const study = studyUid()
  const series = uid()
  const sopHere = uid()
  const sopElsewhere = uid()
  const res = await push(
    withMedia({ studyUid: study, idNumber: ID, name: '周九', identifier: 'R-OWN' }, [
      { link: { reference: wado(study, series, sopHere, '/frames/9') } },
      { link: { reference: wado(study, uid(), sopHere) } },
      { link: { identifier: { system: 'urn:dicom:uid', value: sopElsewhere } } },
      { link: { reference: wado(study, series, sopHere, '/frames/2') }, comment: '保留' },
    ]),
  )
  assert.equal(res.statusCode, 201, res.body)
  const id = res.json().id
  const ownExam = await examIdOf(db, study)
  await insertSeries(db, ownExam, series, [{ sop: sopHere, frames: 2 }])
  // sopElsewhere is an image of another exam of the same patient, not of this report's.
  const otherRes = await push(
    withMedia({ studyUid: OTHER_STUDY, idNumber: ID, name: '周九', identifier: 'R-OTHER' }, []),
  )
  assert.equal(otherRes.statusCode, 201, otherRes.body)
  await insertSeries(db, await examIdOf(db, OTHER_STUDY), uid(), [{ sop: sopElsewhere }])

  const images = keyImagesOf((await detail(id)).body)
  assert.deepEqual(images, [
    {
      examId: ownExam,
      seriesUid: series,
      sopInstanceUid: sopHere,
      frame: 2,
      comment: '保留',
      instanceNumber: 1,
      seriesDescription: null,
    },
  ])
})

test('a media the server cannot place is refused with a Chinese OperationOutcome naming it', async () => {
  const cases: { media: unknown[]; contained?: unknown[]; expression: string; text: string }[] = [
    {
      media: [{ link: { reference: 'Media/123' } }],
      expression: 'DiagnosticReport.media[0].link',
      text: KEY_IMAGE_MESSAGES.where,
    },
    {
      media: [{ link: { reference: '#nope' } }],
      expression: 'DiagnosticReport.media[0].link.reference',
      text: KEY_IMAGE_MESSAGES.contained('nope'),
    },
    {
      media: [{ link: { reference: wado(OTHER_STUDY, SERIES, SOP[0]!) } }],
      expression: 'DiagnosticReport.media[0].link.reference',
      text: KEY_IMAGE_MESSAGES.study,
    },
    {
      media: [{ link: { reference: wado(STUDY, SERIES, SOP[0]!, '/frames/0') } }],
      expression: 'DiagnosticReport.media[0].link.reference',
      text: KEY_IMAGE_MESSAGES.frame,
    },
    {
      media: [{ link: { reference: wado(STUDY, 'abc', SOP[0]!) } }],
      expression: 'DiagnosticReport.media[0].link.reference',
      text: KEY_IMAGE_MESSAGES.uid,
    },
    {
      media: [{ link: { reference: '#m' } }],
      contained: [{ resourceType: 'Media', id: 'm', content: { url: 'https://x.example/a.jpg' } }],
      expression: 'DiagnosticReport.contained[1].content.url',
      text: KEY_IMAGE_MESSAGES.url,
    },
    {
      media: Array.from({ length: KEY_IMAGES_MAX + 1 }, () => ({
        link: { reference: wado(STUDY, SERIES, SOP[0]!) },
      })),
      expression: 'DiagnosticReport.media',
      text: KEY_IMAGE_MESSAGES.tooMany,
    },
  ]
  for (const { media, contained, expression, text } of cases) {
    const res = await push(
      withMedia(
        { studyUid: STUDY, idNumber: ID, name: '周九', identifier: 'R-BAD' },
        media,
        contained,
      ),
    )
    assert.equal(res.statusCode, 422, `${expression}: ${res.body}`)
    const issues = res.json().issue as Json[]
    assert.equal(res.json().resourceType, 'OperationOutcome')
    assert.ok(
      issues.some(
        (issue) => issue.expression?.[0] === expression && issue.diagnostics.includes(text),
      ),
      `${expression} ${text}: ${res.body}`,
    )
  }
  // A contained Media without content is refused by the shape check.
  const res = await push(
    withMedia(
      { studyUid: STUDY, idNumber: ID, name: '周九', identifier: 'R-BAD' },
      [{ link: { reference: '#m' } }],
      [{ resourceType: 'Media', id: 'm' }],
    ),
  )
  assert.equal(res.statusCode, 422, res.body)
})

test('a WADO-RS address with a broken %-escape is refused with a Chinese 422, not a server error', async () => {
  const cases = [
    {
      media: [{ link: { reference: wado(STUDY, '1.2%zz', SOP[0]!) } }],
      expression: 'DiagnosticReport.media[0].link.reference',
    },
    {
      media: [{ link: { reference: '#bad' } }],
      contained: [
        { resourceType: 'Media', id: 'bad', content: { url: wado(STUDY, SERIES, '1.%E0%A4%A') } },
      ],
      expression: 'DiagnosticReport.contained[1].content.url',
    },
  ]
  for (const { media, contained, expression } of cases) {
    const res = await push(
      withMedia(
        { studyUid: STUDY, idNumber: ID, name: '周九', identifier: 'R-ESCAPE' },
        media,
        contained,
      ),
    )
    assert.equal(res.statusCode, 422, `${expression}: ${res.body}`)
    const issues = res.json().issue as Json[]
    assert.ok(
      issues.some(
        (issue) =>
          issue.expression?.[0] === expression &&
          issue.diagnostics.includes(KEY_IMAGE_MESSAGES.uid),
      ),
      res.body,
    )
  }
})

test('media of the wrong type is told apart from a missing element in the OperationOutcome', async () => {
  const cases = [
    { media: 'x', expression: 'DiagnosticReport.media', code: 'structure' },
    { media: [null], expression: 'DiagnosticReport.media[0]', code: 'structure' },
    {
      media: [{ link: { reference: wado(STUDY, SERIES, SOP[0]!) }, comment: 5 }],
      expression: 'DiagnosticReport.media[0].comment',
      code: 'value',
    },
  ]
  for (const { media, expression, code } of cases) {
    const report = diagnosticReport({
      studyUid: STUDY,
      idNumber: ID,
      name: '周九',
      identifier: 'R-TYPE',
    }) as Json
    const res = await push({ ...report, media })
    assert.equal(res.statusCode, 422, res.body)
    const issue = (res.json().issue as Json[]).find((item) => item.expression?.[0] === expression)
    assert.ok(issue, res.body)
    assert.equal(issue.code, code, res.body)
    assert.ok(!issue.diagnostics.includes('缺少必填项'), res.body)
  }
})

test('an amendment’s media replace the key images; a locked private report shows none', async () => {
  const before = keyImagesOf((await detail(reportId)).body)
  assert.ok(before.length > 1, 'version 1 names several key images')
  const amended = withMedia(
    { studyUid: STUDY, idNumber: ID, name: '周九', status: 'amended', conclusion: '修订：结节' },
    [{ link: { reference: wado(STUDY, SERIES, SOP[2]!) }, comment: '只留这一幅' }],
  )
  const res = await push(amended)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.json().meta.versionId, '2')
  assert.deepEqual(keyImagesOf((await detail(reportId)).body), [
    { ...image(SOP[2]!, 3), comment: '只留这一幅' },
  ])
  // 修订记录: version 1 still says what it named.
  const history = (
    envelope(ReportDetailSchema).parse(JSON.parse((await detail(reportId)).body)) as {
      data: { history: { version: number; keyImages?: KeyImage[] }[] }
    }
  ).data.history
  assert.deepEqual(
    history.map((v) => [v.version, v.keyImages]),
    [[1, before]],
  )

  // The grantee's 修订记录 is the owner's: each version with the key images it named (the shared
  // copy was built apart and lost them).
  const granted = await world.app.inject({
    method: 'POST',
    url: '/main/grants',
    headers: { authorization: `Bearer ${token}` },
    payload: {
      audience: 'account',
      examIds: [],
      reportIds: [reportId],
      duration: '24h',
      mobile: strangerMobile,
    },
  })
  assert.equal(granted.statusCode, 200, granted.body)
  const grantId = granted.json().data.grant.id as string
  const shared = await world.app.inject({
    url: `/main/shared/${grantId}/reports/${reportId}`,
    headers: { authorization: `Bearer ${strangerToken}` },
  })
  assert.equal(shared.statusCode, 200, shared.body)
  const sharedDetail = (
    envelope(ReportDetailSchema).parse(JSON.parse(shared.body)) as {
      data: { history: { version: number; keyImages?: KeyImage[] }[]; keyImages?: KeyImage[] }
    }
  ).data
  assert.deepEqual(
    sharedDetail.history.map((v) => [v.version, v.keyImages]),
    [[1, before]],
  )
  assert.deepEqual(sharedDetail.keyImages, [{ ...image(SOP[2]!, 3), comment: '只留这一幅' }])

  await world.app.db
    .insertInto('exam_user_states')
    .values({
      user_id: userId,
      exam_id: examId,
      report_private: 1,
      report_read_at: null,
      archived_at: null,
      hidden_at: null,
      updated_at: world.app.now().toISOString(),
    })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'exam_id']).doUpdateSet({ report_private: 1 }),
    )
    .execute()
  const locked = await detail(reportId)
  assert.equal(JSON.parse(locked.body).data.locked, true)
  assert.deepEqual(keyImagesOf(locked.body), [])
})

test('the demo CT report names two key images: the nodule slice and a mediastinal one', async () => {
  const app = await buildTestApp({
    demoMode: true,
    uploadDir: path.join(os.tmpdir(), `key-images-demo-${randomBytes(4).toString('hex')}`),
  })
  await app.ready()
  await seedDemoRecords(app)
  const patient = (await findUserByMobile(app.db, DEMO_ACCOUNTS[0].mobile))!
  const { access_token: demoToken } = await createSession(app.db, patient.id, new Date())
  const report = await app.db
    .selectFrom('reports')
    .select(['id', 'exam_id'])
    .where('status', '=', 'amended')
    .executeTakeFirstOrThrow()
  const res = await app.inject({
    url: `/main/reports/${report.id}`,
    headers: { authorization: `Bearer ${demoToken}` },
  })
  assert.equal(res.statusCode, 200, res.body)
  const images = keyImagesOf(res.body)
  assert.equal(images.length, 2)
  const numbers = await app.db
    .selectFrom('instances')
    .select(['sop_instance_uid', 'instance_number'])
    .where('exam_id', '=', report.exam_id)
    .where(
      'sop_instance_uid',
      'in',
      images.map((image) => image.sopInstanceUid),
    )
    .execute()
  const numberOf = new Map(numbers.map((row) => [row.sop_instance_uid, row.instance_number]))
  assert.deepEqual(
    images.map((image) => [numberOf.get(image.sopInstanceUid), image.frame, image.examId]),
    [
      [7, 1, report.exam_id],
      [13, 1, report.exam_id],
    ],
  )
  assert.match(images[0]!.comment ?? '', /结节/)
})
