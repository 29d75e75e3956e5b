import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { boundIdentity, visibleTo } from '../../src/domain/records/access'
import { DEMO_QUERY_EXAM, seedDemoRecords } from '../../src/domain/records/demo/seed'
import { DEMO_ACCOUNTS } from '../../src/domain/identity/demo'
import { findUserByMobile } from '../../src/domain/identity/users'
import { buildTestApp } from '../helpers'

test('demo mode pushes the demo patient a MR, a CT with an amended report, compressed studies and one without report', async () => {
  const app = await buildTestApp({
    demoMode: true,
    uploadDir: path.join(os.tmpdir(), `demo-seed-${randomBytes(4).toString('hex')}`),
  })
  await app.ready()
  const first = await seedDemoRecords(app)
  assert.deepEqual(first, { ran: true, studies: 5, reports: 6 })
  assert.equal((await seedDemoRecords(app)).ran, false, 'once per database')

  const patient = (await findUserByMobile(app.db, DEMO_ACCOUNTS[0].mobile))!
  const identity = await boundIdentity(app.db, app.personalCipher, patient.id)
  assert.ok(identity, 'the demo patient has a bound ID card')
  const mine = await app.db
    .selectFrom('exams')
    .selectAll()
    .where(visibleTo({ kind: 'user', userId: patient.id }, identity))
    .orderBy('study_date', 'desc')
    .execute()
  assert.deepEqual(
    mine.map((exam) => [exam.hospital_id, exam.modalities, exam.instance_count]),
    [
      ['demo-hospital-01', 'CT', 12],
      ['demo-hospital-01', 'MR', 20],
      ['demo-hospital-02', 'CT', 24],
      ['demo-hospital-03', 'DX', 1],
    ],
  )
  const syntaxes = await app.db
    .selectFrom('instances')
    .select('transfer_syntax')
    .distinct()
    .execute()
  assert.deepEqual(syntaxes.map((row) => row.transfer_syntax).sort(), [
    '1.2.840.10008.1.2.1',
    '1.2.840.10008.1.2.4.50',
    '1.2.840.10008.1.2.5',
  ])
  const reports = await app.db.selectFrom('reports').selectAll().execute()
  const ct = reports.find((report) => report.hospital_id === 'demo-hospital-02')!
  assert.equal(ct.status, 'amended')
  const history = await app.db
    .selectFrom('report_versions')
    .select('status')
    .where('report_id', '=', ct.id)
    .orderBy('version')
    .execute()
  assert.deepEqual(
    history.map((row) => row.status),
    ['preliminary', 'final', 'amended'],
  )
  const withoutReport = mine.find((exam) => exam.instance_count === 12)!
  assert.equal(reports.filter((report) => report.exam_id === withoutReport.id).length, 0)

  // The 影像查询 exam: someone else's by identity, with the demo patient's phone recorded.
  const query = await app.db
    .selectFrom('exams')
    .selectAll()
    .where('accession_number', '=', DEMO_QUERY_EXAM.accessionNumber)
    .executeTakeFirstOrThrow()
  assert.equal(
    mine.some((exam) => exam.id === query.id),
    false,
  )
  assert.equal(app.personalCipher.decrypt(query.patient_phone_encrypted!), DEMO_ACCOUNTS[0].mobile)

  // The app's X线 chip sends DX; a radiograph written as CR or DR is X线 too.
  const login = await app.inject({
    method: 'POST',
    url: '/sso/oauth2/token',
    payload: { grant_type: 'password', username: DEMO_ACCOUNTS[0].mobile, password: 'demo1234' },
  })
  const token = (login.json() as { data: { access_token: string } }).data.access_token
  const radiographs = async (modality: string) =>
    (
      (
        await app.inject({
          method: 'GET',
          url: `/image/exams?modality=${modality}`,
          headers: { authorization: `Bearer ${token}` },
        })
      ).json() as { data: { total: number } }
    ).data.total
  assert.deepEqual(
    [
      await radiographs('DX'),
      await radiographs('CR'),
      await radiographs('DR'),
      await radiographs('MR'),
    ],
    [1, 1, 1, 1],
  )
})
