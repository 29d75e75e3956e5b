import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { before, test } from 'node:test'
import { listMyImages, listPersonalReports } from '@contract/main/records'
import { envelope } from '@contract/envelope'
import { createListCache } from '../../src/domain/patient/list-cache'
import { patientScope } from '../../src/domain/patient/lists'
import type { ProfileApp } from '../domain/profile/support'
import { buildProfileApp } from '../domain/profile/support'
import { isolatedDatabase, TEST_DB_KIND } from '../helpers'
import {
  addHospital,
  amendReport,
  buildPatientApp,
  client,
  insertExam,
  insertReport,
  insertUploadExam,
  type Patient,
  patientWithCard,
} from './patient-support'

/*
 * The patient lists are kept in memory while the database's change counters (migration 0011) stay
 * put. These tests write the way another server process or the hospital CLI would — straight into
 * the database, never through this app's code — and expect the very next list to show the change.
 */

const ReportsSchema = envelope(listPersonalReports.output)
const ImagesSchema = envelope(listMyImages.output)

let ctx: ProfileApp
let http: ReturnType<typeof client>
let alice: Patient
let bob: Patient

before(async () => {
  ctx = await buildPatientApp()
  http = client(ctx.app)
  await addHospital(ctx.app.db, { id: 'lc-a', name: '缓存甲医院' })
  await addHospital(ctx.app.db, { id: 'lc-b', name: '缓存乙医院' })
  alice = await patientWithCard(ctx, '王缓存')
  bob = await patientWithCard(ctx, '赵缓存')
})

async function reports(token: string, query = '') {
  const res = await http.get(`/main/reports${query}`, token)
  assert.equal(res.statusCode, 200, res.body)
  return ReportsSchema.parse(res.json()).data!
}

async function images(token: string) {
  const res = await http.get('/main/images', token)
  assert.equal(res.statusCode, 200, res.body)
  return ImagesSchema.parse(res.json()).data!
}

test('a report pushed, amended and read shows on the next list; another person is untouched', async () => {
  const { db } = ctx.app
  const cipher = ctx.app.personalCipher
  assert.equal((await reports(alice.token)).total, 0)
  assert.deepEqual(await images(alice.token), [])
  const bobBefore = await images(bob.token)

  // A hospital push for alice's identity (another process: straight into the tables).
  const exam = await insertExam(db, cipher, {
    hospitalId: 'lc-a',
    patient: alice,
    studyDate: '2030-06-01',
    description: '胸部CT',
  })
  const groups = await images(alice.token)
  assert.equal(groups.length, 1)
  assert.equal(groups[0]!.latest[0]!.report, null)

  const reportId = await insertReport(db, exam, { issuedAt: '2030-06-01T10:00:00Z' })
  let page = await reports(alice.token)
  assert.equal(page.total, 1)
  assert.equal(page.items[0]!.status, 'final')
  assert.equal(page.unread, 1)
  assert.equal((await images(alice.token))[0]!.unreadReports, 1)

  await amendReport(db, reportId, { status: 'amended', issuedAt: '2030-06-02T10:00:00Z' })
  page = await reports(alice.token)
  assert.equal(page.items[0]!.status, 'amended')

  // Read through the API: the mark (exam_user_states) changes the unread counts at once.
  const read = await http.send('POST', '/main/reports/read', alice.token, { reportIds: [reportId] })
  assert.equal(read.statusCode, 200, read.body)
  assert.equal((await reports(alice.token)).unread, 0)
  assert.equal((await images(alice.token))[0]!.unreadReports, 0)

  assert.deepEqual(await images(bob.token), bobBefore)
})

test('a renamed hospital, a claimed exam, an upload and a deletion all show on the next list (and 院内查询)', async () => {
  const { db } = ctx.app
  const cipher = ctx.app.personalCipher
  const exam = await insertExam(db, cipher, { hospitalId: 'lc-b', studyDate: '2030-07-01' })
  await insertReport(db, exam, { issuedAt: '2030-07-01T10:00:00Z' })
  const before = await images(bob.token)
  assert.ok(!before.some((group) => group.hospital?.id === 'lc-b'))

  // A claim (影像查询 proves it and inserts the row).
  await db
    .insertInto('exam_claims')
    .values({
      user_id: bob.user.id,
      exam_id: exam.id,
      via: 'query',
      created_at: '2030-07-02T00:00:00.000Z',
    })
    .execute()
  let groups = await images(bob.token)
  assert.equal(groups.find((group) => group.hospital?.id === 'lc-b')?.hospital?.name, '缓存乙医院')
  assert.equal((await reports(bob.token)).items[0]?.hospital.name, '缓存乙医院')

  // `npm run hospital` renames in its own process.
  await db
    .updateTable('hospitals')
    .set({ name: '缓存乙医院（新院区）' })
    .where('id', '=', 'lc-b')
    .execute()
  groups = await images(bob.token)
  assert.equal(
    groups.find((group) => group.hospital?.id === 'lc-b')?.hospital?.name,
    '缓存乙医院（新院区）',
  )
  assert.equal((await reports(bob.token)).items[0]?.hospital.name, '缓存乙医院（新院区）')

  const upload = await insertUploadExam(db, bob.user.id, { title: '外院光盘' })
  groups = await images(bob.token)
  assert.equal(groups.find((group) => group.hospital === null)?.latest[0]?.id, upload.id)

  // 院内查询 (the exam list of one hospital) is kept the same way.
  const examIds = async () => {
    const res = await http.get('/image/exams?hospitalId=lc-b', bob.token)
    assert.equal(res.statusCode, 200, res.body)
    return (res.json().data.items as { id: string }[]).map((item) => item.id)
  }
  assert.deepEqual(await examIds(), [exam.id])

  await db.deleteFrom('exams').where('id', '=', exam.id).execute()
  assert.deepEqual(await examIds(), [])
  groups = await images(bob.token)
  assert.ok(!groups.some((group) => group.hospital?.id === 'lc-b'))
  assert.equal((await reports(bob.token)).total, 0)
})

test('two server processes on one database: a change made through one is on the other at once', async () => {
  // PostgreSQL: one schema for both; SQLite: one file (in-memory databases are private to a handle).
  const database =
    TEST_DB_KIND === 'postgres'
      ? isolatedDatabase()
      : ({
          kind: 'sqlite',
          file: path.join(mkdtempSync(path.join(tmpdir(), 'list-cache-')), 'db.sqlite'),
        } as const)
  const first = await buildProfileApp({ logLevel: 'silent', database })
  const second = await buildProfileApp({ logLevel: 'silent', database })
  await addHospital(first.app.db, { id: 'lc-two', name: '双进程医院' })
  const carol = await patientWithCard(first, '孙双')
  const exam = await insertExam(first.app.db, first.app.personalCipher, {
    hospitalId: 'lc-two',
    patient: carol,
    studyDate: '2030-08-01',
  })
  const reportId = await insertReport(first.app.db, exam, { issuedAt: '2030-08-01T10:00:00Z' })
  const one = client(first.app)
  const two = client(second.app)
  const unreadOn = async (app: ReturnType<typeof client>) => {
    const res = await app.get('/main/reports', carol.token)
    assert.equal(res.statusCode, 200, res.body)
    return ReportsSchema.parse(res.json()).data!.unread
  }
  assert.equal(await unreadOn(one), 1)
  assert.equal(await unreadOn(two), 1)
  const read = await two.send('POST', '/main/reports/read', carol.token, { reportIds: [reportId] })
  assert.equal(read.statusCode, 200, read.body)
  assert.equal(await unreadOn(one), 0)
})

test('the cache computes once per version, once for a burst, and again only for the person changed', async () => {
  const { db } = ctx.app
  const cipher = ctx.app.personalCipher
  const cache = createListCache(db, 3)
  const aliceScope = await patientScope(db, cipher, { id: alice.user.id })
  const bobScope = await patientScope(db, cipher, { id: bob.user.id })
  let computed = 0
  const compute = async () => {
    computed += 1
    return { n: computed }
  }
  const burst = await Promise.all(
    Array.from({ length: 10 }, () => cache.get('t', aliceScope, {}, compute)),
  )
  assert.equal(computed, 1)
  assert.ok(burst.every((answer) => answer === burst[0]))
  await cache.get('t', bobScope, {}, compute)
  assert.equal(computed, 2)

  // A change for bob only (an upload of his) leaves alice's answer in place.
  await insertUploadExam(db, bob.user.id, { title: `上传 ${randomUUID().slice(0, 4)}` })
  assert.deepEqual(await cache.get('t', aliceScope, {}, compute), { n: 1 })
  assert.deepEqual(await cache.get('t', bobScope, {}, compute), { n: 3 })
  // Other options are other answers; the bound evicts the least recently used.
  await cache.get('t', aliceScope, { page: 2 }, compute)
  await cache.get('t', aliceScope, { page: 3 }, compute)
  assert.equal(cache.size, 3)
  assert.deepEqual(await cache.get('t', aliceScope, {}, compute), { n: 6 })

  // A failed computation is not kept.
  await assert.rejects(cache.get('fails', aliceScope, {}, () => Promise.reject(new Error('x'))))
  assert.deepEqual(await cache.get('fails', aliceScope, {}, compute), { n: 7 })
})
