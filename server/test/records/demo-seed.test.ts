import assert from 'node:assert/strict'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { buildApp } from '../../src/app'
import type { DatabaseConfig } from '../../src/config'
import { boundIdentity, visibleTo } from '../../src/domain/records/access'
import {
  DEMO_QUERY_EXAM,
  DEMO_RECORDS_MARKER,
  seedDemoRecords,
} from '../../src/domain/demo-records/seed'
import { previewKeyPrefix } from '../../src/domain/records/images'
import { reserveStorage, storageQuota } from '../../src/domain/uploads/uploads'
import { DEMO_ACCOUNTS } from '../../src/domain/identity/demo'
import { findUserByMobile } from '../../src/domain/identity/users'
import { signUp } from '../domain/profile/support'
import { buildTestApp, closeAfter, isolatedDatabase, TEST_DB_KIND, testConfig } from '../helpers'

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

test(`demo mode off removes the demo hospitals' records, rows and objects, and nothing else (${TEST_DB_KIND})`, async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'demo-off-'))
  after(() => rmSync(root, { recursive: true, force: true }))
  // One database and one upload folder for both starts: an SQLite file or a PostgreSQL schema.
  const isolated = isolatedDatabase()
  const database: DatabaseConfig =
    isolated.kind === 'postgres' ? isolated : { kind: 'sqlite', file: path.join(root, 'db.sqlite') }
  const uploadDir = path.join(root, 'uploads')

  const demo = await buildApp(testConfig({ demoMode: true, database, uploadDir }))
  closeAfter(() => demo.close())
  await demo.ready()
  assert.equal((await seedDemoRecords(demo)).ran, true)
  const demoExams = await demo.db
    .selectFrom('exams')
    .selectAll()
    .where('hospital_id', 'like', 'demo-hospital-%')
    .execute()
  assert.equal(demoExams.length, 5)
  const demoKeys = (
    await demo.db.selectFrom('instances').select(['file_key', 'pixels_key']).execute()
  ).flatMap((row) => [row.file_key, row.pixels_key ?? []].flat())
  assert.ok(demoKeys.length > 50)
  for (const key of demoKeys) assert.equal(await demo.store.exists(key), true, key)

  // A cached preview and someone's photo on a demo exam (counted in their storage).
  const mr = demoExams.find((exam) => exam.modalities === 'MR')!
  const preview = `${previewKeyPrefix(mr.id)}x/thumbnail.jpg`
  await demo.store.put(preview, Buffer.from('jpeg'), { contentType: 'image/jpeg' })
  const { user } = await signUp(demo.db, new Date())
  const at = new Date().toISOString()
  await reserveStorage(demo.db, user.id, 1234, 10_000, new Date())
  await demo.store.put('photos/demo-off/1.jpg', Buffer.alloc(1234), { contentType: 'image/jpeg' })
  await demo.db
    .insertInto('exam_files')
    .values({
      id: randomUUID(),
      exam_id: mr.id,
      user_id: user.id,
      kind: 'photo',
      file_key: 'photos/demo-off/1.jpg',
      mime_type: 'image/jpeg',
      size_bytes: 1234,
      width: 100,
      height: 100,
      created_at: at,
    })
    .execute()

  // The user's own upload: a copy of a demo series under an upload exam, its file elsewhere.
  const keptExamId = randomUUID()
  await demo.db
    .insertInto('exams')
    .values({ ...mr, id: keptExamId, hospital_id: null, owner_user_id: user.id, source: 'upload' })
    .execute()
  const series = await demo.db
    .selectFrom('series')
    .selectAll()
    .where('exam_id', '=', mr.id)
    .executeTakeFirstOrThrow()
  const keptSeriesId = randomUUID()
  await demo.db
    .insertInto('series')
    .values({ ...series, id: keptSeriesId, exam_id: keptExamId })
    .execute()
  const instance = await demo.db
    .selectFrom('instances')
    .selectAll()
    .where('series_id', '=', series.id)
    .limit(1)
    .executeTakeFirstOrThrow()
  await demo.store.put('objects/kept/1.dcm', Buffer.from('dicm'), {
    contentType: 'application/dicom',
  })
  await demo.db
    .insertInto('instances')
    .values({
      ...instance,
      id: randomUUID(),
      exam_id: keptExamId,
      series_id: keptSeriesId,
      file_key: 'objects/kept/1.dcm',
      pixels_key: null,
    })
    .execute()
  await demo.close()

  const real = await buildApp(testConfig({ demoMode: false, database, uploadDir }))
  closeAfter(() => real.close())
  await real.ready()
  const left = await real.db.selectFrom('exams').select(['id', 'hospital_id']).execute()
  assert.deepEqual(left, [{ id: keptExamId, hospital_id: null }])
  const rows = async (
    table: 'instances' | 'series' | 'reports' | 'report_versions' | 'exam_files',
  ) =>
    (
      await real.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n
  assert.equal(Number(await rows('instances')), 1)
  assert.equal(Number(await rows('series')), 1)
  assert.equal(Number(await rows('reports')), 0)
  assert.equal(Number(await rows('report_versions')), 0)
  assert.equal(Number(await rows('exam_files')), 0)
  const demoJobs = await real.db
    .selectFrom('ingest_jobs')
    .select('id')
    .where('hospital_id', 'like', 'demo-hospital-%')
    .execute()
  assert.deepEqual(demoJobs, [])
  for (const key of [...demoKeys, preview, 'photos/demo-off/1.jpg']) {
    assert.equal(await real.store.exists(key), false, key)
  }
  assert.equal(await real.store.exists('objects/kept/1.dcm'), true)
  assert.equal((await storageQuota(real.db, user.id, 10_000)).usedBytes, 0)
  // Demo mode on again pushes the records afresh.
  const marker = await real.db
    .selectFrom('seed_runs')
    .select('name')
    .where('name', '=', DEMO_RECORDS_MARKER)
    .executeTakeFirst()
  assert.equal(marker, undefined)
})

test(`two servers pushing the demo records at once push them once (${TEST_DB_KIND})`, async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'demo-twice-'))
  after(() => rmSync(root, { recursive: true, force: true }))
  const isolated = isolatedDatabase()
  const database: DatabaseConfig =
    isolated.kind === 'postgres' ? isolated : { kind: 'sqlite', file: path.join(root, 'db.sqlite') }
  const uploadDir = path.join(root, 'uploads')
  const start = async () => {
    const app = await buildApp(testConfig({ demoMode: true, database, uploadDir }))
    closeAfter(() => app.close())
    await app.ready()
    return app
  }
  const [one, two] = [await start(), await start()]
  const runs = await Promise.all([seedDemoRecords(one), seedDemoRecords(two)])
  // Whichever won, one pushed and the other left it.
  assert.deepEqual(runs.map((run) => run.ran).sort(), [false, true])
  const exams = await one.db
    .selectFrom('exams')
    .select('id')
    .where('hospital_id', 'like', 'demo-hospital-%')
    .execute()
  assert.equal(exams.length, 5)
  // One version per FHIR push (the amended CT report has three).
  const versions = await one.db.selectFrom('report_versions').select('id').execute()
  assert.equal(versions.length, 6)
  assert.equal((await seedDemoRecords(two)).ran, false, 'and never again')
})
