import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import {
  boundIdentity,
  EXAM_NOT_FOUND,
  findVisibleExam,
  type RecordsCaller,
  visibleTo,
} from '../../src/domain/records/access'
import {
  diagnosticReport,
  fhirHeaders,
  fhirWorld,
  patientWithCard,
  residentId,
  type ReportOptions,
  studyUid,
} from './support'

/*
 * Who sees a pushed report: through the one authorisation check (access.ts), a patient whose bound
 * ID card has the pushed ID number AND name; nobody else.
 */

async function push(app: FastifyInstance, key: string, options: ReportOptions) {
  const response = await app.inject({
    method: 'POST',
    url: '/fhir/DiagnosticReport',
    headers: fhirHeaders(key),
    payload: JSON.stringify(diagnosticReport(options)),
  })
  assert.ok(response.statusCode === 201 || response.statusCode === 200, response.body)
  const report = await app.db
    .selectFrom('reports')
    .select(['exam_id'])
    .where('id', '=', response.json().id)
    .executeTakeFirstOrThrow()
  return report.exam_id
}

async function sees(app: FastifyInstance, userId: string, examId: string): Promise<boolean> {
  const caller: RecordsCaller = { kind: 'user', userId }
  const byId = await findVisibleExam(app.db, app.personalCipher, caller, examId).then(
    () => true,
    (error: { statusCode?: number; userMessage?: string }) => {
      assert.equal(error.statusCode, 404)
      assert.equal(error.userMessage, EXAM_NOT_FOUND)
      return false
    },
  )
  // A list query (what the report lists use) must agree with the single look-up.
  const identity = await boundIdentity(app.db, app.personalCipher, userId)
  const listed = await app.db
    .selectFrom('exams')
    .select('exams.id')
    .where(visibleTo(caller, identity))
    .execute()
  assert.equal(
    listed.some((row) => row.id === examId),
    byId,
  )
  return byId
}

test('the patient with the bound ID number and the same name sees the report; others do not', async () => {
  const { app, key } = await fhirWorld()
  const owner = await patientWithCard(app, residentId(), '张三')
  const stranger = await patientWithCard(app, residentId('19851212', 456), '李四')
  // Same name, another number: a namesake is not the patient.
  const namesake = await patientWithCard(app, residentId('19920101', 789), '张三')

  const examId = await push(app, key, { idNumber: residentId(), name: '张三', identifier: 'R-1' })
  assert.equal(await sees(app, owner.id, examId), true)
  assert.equal(await sees(app, stranger.id, examId), false)
  assert.equal(await sees(app, namesake.id, examId), false)

  // The hospital writes the name its own way (DICOM separators, spaces): still the same person.
  const spelled = await push(app, key, { idNumber: residentId(), name: '张 三', identifier: 'R-2' })
  assert.equal(await sees(app, owner.id, spelled), true)
})

test('the same ID number with a different name is not matched', async () => {
  const { app, key } = await fhirWorld()
  const owner = await patientWithCard(app, residentId(), '张三')
  const examId = await push(app, key, { idNumber: residentId(), name: '王五', identifier: 'R-3' })
  assert.equal(await sees(app, owner.id, examId), false)
  // A report without any ID number reaches nobody by identity (only by a claim).
  const noId = diagnosticReport({ identifier: 'R-4' }) as { contained: { identifier?: unknown }[] }
  delete noId.contained[0]!.identifier
  const response = await app.inject({
    method: 'POST',
    url: '/fhir/DiagnosticReport',
    headers: fhirHeaders(key),
    payload: JSON.stringify(noId),
  })
  assert.equal(response.statusCode, 201, response.body)
  const report = await app.db
    .selectFrom('reports')
    .select('exam_id')
    .where('id', '=', response.json().id)
    .executeTakeFirstOrThrow()
  assert.equal(await sees(app, owner.id, report.exam_id), false)
})

test('an amended report naming another patient moves the exam away from the first', async () => {
  const { app, key } = await fhirWorld()
  const first = await patientWithCard(app, residentId(), '张三')
  const second = await patientWithCard(app, residentId('19851212', 456), '李四')
  const uid = studyUid()
  const examId = await push(app, key, {
    idNumber: residentId(),
    name: '张三',
    identifier: 'R-5',
    studyUid: uid,
  })
  assert.equal(await sees(app, first.id, examId), true)

  // Sent to the wrong patient: as final again it is refused, nothing changes hands.
  const refused = await app.inject({
    method: 'POST',
    url: '/fhir/DiagnosticReport',
    headers: fhirHeaders(key),
    payload: JSON.stringify(
      diagnosticReport({
        idNumber: residentId('19851212', 456),
        name: '李四',
        identifier: 'R-5',
        studyUid: uid,
      }),
    ),
  })
  assert.equal(refused.statusCode, 422)
  assert.equal(await sees(app, first.id, examId), true)
  assert.equal(await sees(app, second.id, examId), false)

  const moved = await push(app, key, {
    idNumber: residentId('19851212', 456),
    name: '李四',
    identifier: 'R-5',
    studyUid: uid,
    status: 'corrected',
  })
  assert.equal(moved, examId)
  assert.equal(await sees(app, first.id, examId), false)
  assert.equal(await sees(app, second.id, examId), true)
})

test("a hospital key sees its own hospital's exam through the same check, another hospital's not", async () => {
  const { app, key, hospitalId, otherHospitalId } = await fhirWorld()
  const examId = await push(app, key, { identifier: 'R-6' })
  const own = await findVisibleExam(
    app.db,
    app.personalCipher,
    { kind: 'hospital', hospitalId },
    examId,
  )
  assert.equal(own.id, examId)
  await assert.rejects(
    findVisibleExam(
      app.db,
      app.personalCipher,
      { kind: 'hospital', hospitalId: otherHospitalId },
      examId,
    ),
    (error: { statusCode?: number }) => error.statusCode === 404,
  )
})
