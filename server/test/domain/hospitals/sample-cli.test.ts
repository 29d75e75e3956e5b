import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { runHospitalCli } from '../../../src/hospital-cli'
import { DEMO_ACCOUNTS } from '../../../src/domain/identity/demo'
import { boundIdentity, visibleTo } from '../../../src/domain/records/access'
import { seedDemoRecords } from '../../../src/domain/demo-records/seed'
import { findUserByMobile } from '../../../src/domain/identity/users'
import { buildTestApp } from '../../helpers'

test('`hospital -- sample` writes a study and report that the README curl lines push to the demo patient', async () => {
  const dir = path.join(os.tmpdir(), `sample-${randomBytes(4).toString('hex')}`)
  const lines: string[] = []
  const code = await runHospitalCli(
    ['sample', dir],
    {},
    (line) => lines.push(line),
    () => {},
  )
  assert.equal(code, 0)
  const studyUid = /StudyInstanceUID：(\S+)/.exec(lines.join('\n'))?.[1]
  assert.ok(studyUid)

  const app = await buildTestApp({
    demoMode: true,
    uploadDir: path.join(os.tmpdir(), `sample-app-${randomBytes(4).toString('hex')}`),
  })
  await app.ready()
  // The demo patient's bound card comes with the demo records.
  await seedDemoRecords(app)
  const stow = await app.inject({
    method: 'POST',
    url: '/dicomweb/studies',
    headers: {
      authorization: 'Bearer demo-hospital-key',
      'content-type': 'multipart/related; type="application/dicom"; boundary=yingxiang-sample',
      accept: 'application/dicom+json',
    },
    payload: readFileSync(path.join(dir, 'stow.body')),
  })
  assert.equal(stow.statusCode, 200, stow.body)
  const fhir = await app.inject({
    method: 'POST',
    url: '/fhir/DiagnosticReport',
    headers: { authorization: 'Bearer demo-hospital-key', 'content-type': 'application/fhir+json' },
    payload: readFileSync(path.join(dir, 'report.json')),
  })
  assert.equal(fhir.statusCode, 201, fhir.body)

  const patient = (await findUserByMobile(app.db, DEMO_ACCOUNTS[0].mobile))!
  const exam = await app.db
    .selectFrom('exams')
    .selectAll()
    .where('study_uid', '=', studyUid)
    .where(
      visibleTo(
        { kind: 'user', userId: patient.id },
        await boundIdentity(app.db, app.personalCipher, patient.id),
      ),
    )
    .executeTakeFirstOrThrow()
  assert.equal(exam.instance_count, 12)
  const report = await app.db
    .selectFrom('reports')
    .select('status')
    .where('exam_id', '=', exam.id)
    .executeTakeFirstOrThrow()
  assert.equal(report.status, 'final')
})
