import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, test } from 'node:test'
import { CompiledQuery } from 'kysely'
import { getAreaData, getCurrentLocation, listImageHospitals } from '@contract/image/areas'
import { listExams } from '@contract/image/exams'
import { envelope } from '@contract/envelope'
import {
  getExamDetail,
  listMyHospitals,
  listMyImages,
  listSeriesInstances,
  listYsReports,
} from '@contract/main/records'
import { ingestFiles } from '../../src/domain/ingest/ingest'
import { testInstance } from '../dicom/writer'
import type { ProfileApp } from '../domain/profile/support'
import { TEST_DB_KIND } from '../helpers'
import { signUp } from '../domain/profile/support'
import {
  addHospital,
  buildPatientApp,
  clearSeededHospitals,
  client,
  insertExam,
  insertReport,
  insertUploadExam,
  PASSWORD,
  type Patient,
  patientWithCard,
} from './patient-support'

let ctx: ProfileApp
let http: ReturnType<typeof client>
let alice: Patient
let bob: Patient
const STUDY = '1.2.826.0.1.3680043.10.77.1'
const SERIES = '1.2.826.0.1.3680043.10.77.2'
let ingestedExamId: string

before(async () => {
  ctx = await buildPatientApp()
  http = client(ctx.app)
  const { db } = ctx.app
  const cipher = ctx.app.personalCipher
  await clearSeededHospitals(db)
  await addHospital(
    db,
    {
      id: 'h-bj',
      name: '示例北京医院',
      province: '北京市',
      city: '北京市',
      regionCode: '110101',
      regionName: '北京市东城区',
      ai: true,
    },
    1,
  )
  await addHospital(
    db,
    {
      id: 'h-bj2',
      name: '示例北京第二医院',
      province: '北京市',
      city: '北京市',
      regionCode: '110105',
      regionName: '朝阳区',
    },
    2,
  )
  await addHospital(
    db,
    {
      id: 'h-gz',
      name: '示例广州医院',
      province: '广东省',
      city: '广州市',
      regionCode: '440106',
      regionName: '广东省广州市天河区',
      ai: true,
    },
    3,
  )
  await addHospital(
    db,
    { id: 'h-sz', name: '示例深圳医院', province: '广东省', city: '深圳市', regionCode: '440300' },
    4,
  )
  await addHospital(db, { id: 'h-none', name: '示例无地区医院' }, 5)
  alice = await patientWithCard(ctx, '赵六')
  bob = await patientWithCard(ctx, '钱七')

  // Alice: 12 CT/MR exams at 北京 (dates in January), 2 at 广州 (one with a report), 1 upload.
  for (let day = 1; day <= 12; day += 1) {
    await insertExam(db, cipher, {
      hospitalId: 'h-bj',
      patient: alice,
      studyDate: `2030-01-${String(day).padStart(2, '0')}`,
      modalities: day % 3 === 0 ? 'MR,SR' : 'CT',
      description: `北京检查${day}`,
    })
  }
  const gz1 = await insertExam(db, cipher, {
    hospitalId: 'h-gz',
    patient: alice,
    studyDate: '2030-02-01',
    description: '广州检查1',
  })
  await insertReport(db, gz1)
  await insertExam(db, cipher, {
    hospitalId: 'h-gz',
    patient: alice,
    studyDate: null,
    description: '广州无日期检查',
    createdAt: '2029-12-01T00:00:00.000Z',
  })
  await insertUploadExam(db, alice.user.id, { title: '外院头颅 MR' })
  // Bob: one exam at 深圳, one upload.
  await insertExam(db, cipher, { hospitalId: 'h-sz', patient: bob, description: '深圳检查' })
  await insertUploadExam(db, bob.user.id, { title: '鲍勃的上传' })

  // Through the real ingest: a five-slice series pushed by 北京 for alice (ID in OtherPatientIDs).
  const files = [1, 2, 3, 4, 5].map((n) => ({
    name: `slice${n}.dcm`,
    bytes: testInstance([
      { tag: '00080005', vr: 'CS', value: 'ISO_IR 192' },
      { tag: '00080018', vr: 'UI', value: `1.2.826.0.1.3680043.10.77.3.${n}` },
      { tag: '00080020', vr: 'DA', value: '20300301' },
      { tag: '00080060', vr: 'CS', value: 'CT' },
      { tag: '00081030', vr: 'LO', value: Buffer.from('头颅 CT 平扫') },
      { tag: '00100010', vr: 'PN', value: Buffer.from('赵^六') },
      { tag: '00100020', vr: 'LO', value: 'MRN-1' },
      { tag: '00101000', vr: 'LO', value: alice.idNumber },
      { tag: '0020000D', vr: 'UI', value: STUDY },
      { tag: '0020000E', vr: 'UI', value: SERIES },
      { tag: '00200013', vr: 'IS', value: String(n) },
    ]),
  }))
  const result = await ingestFiles(
    { db, store: ctx.app.store, cipher, now: ctx.clock.now },
    { kind: 'hospital', hospitalId: 'h-bj' },
    files,
  )
  assert.equal(result.stored, 5, JSON.stringify(result.instances))
  ingestedExamId = result.examIds[0]!
})

const ImagesSchema = envelope(listMyImages.output)
const ExamsSchema = envelope(listExams.output)

async function ok<T>(
  schema: { parse(value: unknown): { data: T } },
  url: string,
  token?: string,
): Promise<T> {
  const res = await http.get(url, token)
  assert.equal(res.statusCode, 200, res.body)
  return schema.parse(res.json()).data
}

test('my images: grouped by hospital, newest exam first, uploads last, three exams each', async () => {
  const groups = await ok(ImagesSchema, '/main/images', alice.token)
  assert.deepEqual(
    groups.map((group) => group.hospital?.name ?? null),
    ['示例北京医院', '示例广州医院', null],
  )
  const [bj, gz, uploads] = groups
  assert.equal(bj!.examCount, 13, '12 inserted and the ingested study')
  assert.deepEqual(
    bj!.latest.map((exam) => exam.title),
    ['头颅 CT 平扫', '北京检查12', '北京检查11'],
  )
  assert.equal(bj!.latestStudyDate, '2030-03-01')
  assert.equal(gz!.examCount, 2)
  assert.equal(gz!.unreadReports, 1)
  assert.equal(gz!.latest[0]!.report?.statusLabel, '正式报告')
  assert.equal(uploads!.examCount, 1)
  assert.equal(uploads!.latest[0]!.source, 'upload')
  assert.equal(uploads!.latest[0]!.title, '外院头颅 MR')

  const picked = await ok(ImagesSchema, '/main/images?hospitalIds=h-gz,upload', alice.token)
  assert.deepEqual(
    picked.map((group) => group.hospital?.id ?? 'upload'),
    ['h-gz', 'upload'],
  )
  // Bob's hospital named in the filter does not add Bob's exams.
  assert.deepEqual(await ok(ImagesSchema, '/main/images?hospitalIds=h-sz', alice.token), [])
})

test('exam info list: one hospital, paged by 10, modality and date filters', async () => {
  const first = await ok(ExamsSchema, '/image/exams?hospitalId=h-bj', alice.token)
  assert.equal(first.total, 13)
  assert.equal(first.items.length, 10)
  assert.equal(first.pageSize, 10)
  const second = await ok(ExamsSchema, '/image/exams?hospitalId=h-bj&page=2', alice.token)
  assert.deepEqual(
    second.items.map((exam) => exam.title),
    ['北京检查3', '北京检查2', '北京检查1'],
  )
  const beyond = await ok(ExamsSchema, '/image/exams?hospitalId=h-bj&page=5', alice.token)
  assert.deepEqual([beyond.items.length, beyond.total], [0, 13])
  const mr = await ok(ExamsSchema, '/image/exams?hospitalId=h-bj&modality=MR', alice.token)
  assert.deepEqual(
    mr.items.map((exam) => exam.title),
    ['北京检查12', '北京检查9', '北京检查6', '北京检查3'],
  )
  assert.deepEqual(mr.items[0]!.modalities, ['MR', 'SR'])
  // 'R' is not a modality of 'MR,SR' (whole entries only), and lower case works.
  assert.equal((await ok(ExamsSchema, '/image/exams?modality=sr', alice.token)).total, 4)
  const dated = await ok(
    ExamsSchema,
    '/image/exams?hospitalId=h-bj&dateFrom=2030-01-05&dateTo=2030-01-07',
    alice.token,
  )
  assert.deepEqual(
    dated.items.map((exam) => exam.studyDate),
    ['2030-01-07', '2030-01-06', '2030-01-05'],
  )
  // Without a study date an exam sorts by the day it arrived.
  const gz = await ok(ExamsSchema, '/image/exams?hospitalId=h-gz', alice.token)
  assert.deepEqual(
    gz.items.map((exam) => exam.title),
    ['广州检查1', '广州无日期检查'],
  )
  const uploads = await ok(ExamsSchema, '/image/exams?hospitalId=upload', alice.token)
  assert.deepEqual(
    uploads.items.map((exam) => exam.title),
    ['外院头颅 MR'],
  )
  const all = await ok(ExamsSchema, '/image/exams?pageSize=50', alice.token)
  assert.equal(all.total, 16)

  const bad = await http.get('/image/exams?modality=C-T', alice.token)
  assert.equal(bad.statusCode, 400)
  assert.match(bad.json().error, /检查类型/)
  assert.equal((await http.get('/image/exams?page=0', alice.token)).statusCode, 400)
})

test('exam detail of an ingested study: series with the middle slice as thumbnail', async () => {
  const detail = await ok(
    envelope(getExamDetail.output),
    `/main/exams/${ingestedExamId}`,
    alice.token,
  )
  assert.equal(detail.studyUid, STUDY)
  assert.equal(detail.hospital?.name, '示例北京医院')
  assert.equal(detail.patientNameMasked, '赵*')
  assert.equal(detail.studyDate, '2030-03-01')
  assert.equal(detail.series.length, 1)
  const series = detail.series[0]!
  assert.equal(series.instanceCount, 5)
  assert.equal(series.previewStatus, 'ready')
  assert.equal(
    series.thumbnailPath,
    `/dicomweb/studies/${STUDY}/series/${SERIES}/instances/1.2.826.0.1.3680043.10.77.3.3/thumbnail`,
  )
  assert.equal(detail.report, null)
  // Bob: 404, the same as an id that does not exist.
  const stranger = await http.get(`/main/exams/${ingestedExamId}`, bob.token)
  assert.equal(stranger.statusCode, 404)
  assert.equal(stranger.body, (await http.get(`/main/exams/${randomUUID()}`, bob.token)).body)
})

test('files of a series: in instance number order, only for who may see the exam', async () => {
  const detail = await ok(
    envelope(getExamDetail.output),
    `/main/exams/${ingestedExamId}`,
    alice.token,
  )
  const seriesId = detail.series[0]!.id
  const url = `/main/exams/${ingestedExamId}/series/${seriesId}/instances`
  const files = await ok(envelope(listSeriesInstances.output), url, alice.token)
  assert.deepEqual(
    files.map((file) => [file.instanceNumber, file.sopInstanceUid]),
    [1, 2, 3, 4, 5].map((n) => [n, `1.2.826.0.1.3680043.10.77.3.${n}`]),
  )
  for (const file of files) {
    assert.ok(file.sizeBytes > 0)
    assert.equal(file.frameCount, 1)
  }
  // Bob: 404 like any exam he cannot see; a series id of another exam: 404 too.
  assert.equal((await http.get(url, bob.token)).statusCode, 404)
  const own = (await ok(ImagesSchema, '/main/images', alice.token))
    .flatMap((group) => group.latest)
    .find((exam) => exam.id !== ingestedExamId)!
  const elsewhere = await http.get(
    `/main/exams/${own.id}/series/${seriesId}/instances`,
    alice.token,
  )
  assert.equal(elsewhere.statusCode, 404)
  assert.match(elsewhere.json().error, /序列不存在/)
  assert.equal((await http.get(url)).statusCode, 401)
})

test('my uploads (ys): in-flight and failed uploads first, then the exams uploads became', async () => {
  const { db } = ctx.app
  const job = (status: string, at: string, message: string | null = null) => ({
    id: randomUUID(),
    kind: 'upload',
    hospital_id: null,
    user_id: alice.user.id,
    exam_id: null,
    status,
    staging_prefix: `staging/${randomUUID()}`,
    file_name: `${status}.zip`,
    total_bytes: 2048,
    received_bytes: 1024,
    stored_count: 0,
    duplicate_count: 0,
    skipped_count: 0,
    attempts: 0,
    message,
    result_json: null,
    locked_by: null,
    locked_until: null,
    created_at: at,
    updated_at: at,
    finished_at: null,
  })
  await db
    .insertInto('ingest_jobs')
    .values([
      job('receiving', '2030-05-20T00:00:00.000Z'),
      job('running', '2030-05-19T00:00:00.000Z'),
      job('failed', '2030-05-18T00:00:00.000Z', '压缩包中没有 DICOM 文件'),
      job('done', '2030-05-17T00:00:00.000Z'),
    ])
    .execute()
  const ys = await ok(envelope(listYsReports.output), '/main/reports/ys', alice.token)
  assert.equal(ys.total, 4)
  assert.deepEqual(
    ys.items.map((item) => [item.title, item.statusLabel]),
    [
      ['receiving.zip', '上传中'],
      ['running.zip', '解析中'],
      ['failed.zip', '失败'],
      ['外院头颅 MR', '可查看'],
    ],
  )
  assert.equal(ys.items[2]!.statusMessage, '压缩包中没有 DICOM 文件')
  assert.ok(ys.items[3]!.examId)
  const page2 = await ok(
    envelope(listYsReports.output),
    '/main/reports/ys?pageSize=3&page=2',
    alice.token,
  )
  assert.deepEqual(
    page2.items.map((item) => item.title),
    ['外院头颅 MR'],
  )
  const bobs = await ok(envelope(listYsReports.output), '/main/reports/ys', bob.token)
  assert.deepEqual(
    bobs.items.map((item) => item.title),
    ['鲍勃的上传'],
  )
})

test('my hospitals and hospital detail', async () => {
  const mine = await ok(envelope(listMyHospitals.output), '/main/hospitals/mine', alice.token)
  assert.deepEqual(
    mine.map((hospital) => [hospital.name, hospital.examCount, hospital.reportCount]),
    [
      ['示例北京医院', 13, 0],
      ['示例广州医院', 2, 1],
    ],
  )
  const nobody = await signUp(ctx.app.db, ctx.clock.now(), { password: PASSWORD })
  assert.deepEqual(
    await ok(envelope(listMyHospitals.output), '/main/hospitals/mine', nobody.token),
    [],
  )
  const detail = await http.get('/main/hospitals/h-gz')
  assert.equal(detail.statusCode, 200)
  assert.equal(detail.json().data.aiReporting, true)
  assert.equal(detail.json().data.regionCode, '440106')
  const missing = await http.get('/main/hospitals/nope')
  assert.equal(missing.statusCode, 404)
  assert.equal(missing.json().error, '该医院不存在')
})

test('area data: provinces, cities and districts of our hospitals only', async () => {
  const areas = await ok(envelope(getAreaData.output), '/image/areas')
  assert.deepEqual(areas, [
    {
      code: '110000',
      name: '北京市',
      hospitalCount: 2,
      children: [
        {
          code: '110100',
          name: '北京市',
          hospitalCount: 2,
          children: [
            { code: '110101', name: '东城区', hospitalCount: 1 },
            { code: '110105', name: '朝阳区', hospitalCount: 1 },
          ],
        },
      ],
    },
    {
      code: '440000',
      name: '广东省',
      hospitalCount: 2,
      children: [
        {
          code: '440100',
          name: '广州市',
          hospitalCount: 1,
          children: [{ code: '440106', name: '天河区', hospitalCount: 1 }],
        },
        { code: '440300', name: '深圳市', hospitalCount: 1, children: [] },
      ],
    },
  ])
})

test('hospital list by region, search and AI; default area; current location', async () => {
  const Hospitals = envelope(listImageHospitals.output)
  const names = async (query: string) =>
    (await ok(Hospitals, `/image/hospitals${query}`)).items.map((hospital) => hospital.name)
  assert.deepEqual(await names('?regionCode=110000'), ['示例北京医院', '示例北京第二医院'])
  assert.deepEqual(await names('?regionCode=110105'), ['示例北京第二医院'])
  assert.deepEqual(await names('?regionCode=440100'), ['示例广州医院'])
  assert.deepEqual(await names('?regionCode=440000&aiOnly=true'), ['示例广州医院'])
  assert.deepEqual(await names('?keyword=深圳'), ['示例深圳医院'])
  assert.deepEqual(await names('?keyword=%25'), [], '% is a character, not a wildcard')
  assert.equal((await ok(Hospitals, '/image/hospitals')).total, 5)
  const bad = await http.get('/image/hospitals?regionCode=11')
  assert.equal(bad.statusCode, 400)
  assert.match(bad.json().error, /地区代码应为 6 位数字/)

  const ai = await http.get('/image/hospitals/ai')
  assert.deepEqual(
    (ai.json().data as { name: string }[]).map((hospital) => hospital.name),
    ['示例北京医院', '示例广州医院'],
  )

  // Alice's newest exam is the ingested one at 北京东城.
  const area = await http.get('/image/areas/default', alice.token)
  assert.equal(area.statusCode, 200, area.body)
  assert.deepEqual(area.json().data, {
    provinceCode: '110000',
    provinceName: '北京市',
    cityCode: '110100',
    cityName: '北京市',
    districtCode: '110101',
    districtName: '东城区',
  })
  // Someone without exams: the city with the most hospitals (北京, 2).
  const nobody = await signUp(ctx.app.db, ctx.clock.now(), { password: PASSWORD })
  assert.equal(
    (await http.get('/image/areas/default', nobody.token)).json().data.cityCode,
    '110100',
  )
  assert.equal((await http.get('/image/areas/default')).statusCode, 401)

  const Location = envelope(getCurrentLocation.output)
  // 深圳 Futian: nearest is 深圳 (it has hospitals), not 广州.
  const shenzhen = await ok(Location, '/image/location?latitude=22.54&longitude=114.05')
  assert.equal(shenzhen.area?.cityName, '深圳市')
  assert.ok(shenzhen.distanceKm! < 5)
  // 天津: nearest city with hospitals is 北京.
  const tianjin = await ok(Location, '/image/location?latitude=39.12&longitude=117.2')
  assert.equal(tianjin.area?.cityCode, '110100')
  assert.ok(tianjin.distanceKm! > 100 && tianjin.distanceKm! < 130)
  const wrong = await http.get('/image/location?latitude=91&longitude=0')
  assert.equal(wrong.statusCode, 400)
  assert.match(wrong.json().error, /纬度/)
  assert.equal((await http.get('/image/location?latitude=abc&longitude=0')).statusCode, 400)
})

test(
  'lists start from the caller’s exams, not from every exam of the filtered hospital (SQLite plan)',
  { skip: TEST_DB_KIND !== 'sqlite' && 'query plans are SQLite’s' },
  async () => {
    const { db } = ctx.app
    const executor = db.getExecutor()
    const plans: string[] = []
    const original = executor.executeQuery.bind(executor)
    const spy = async (query: CompiledQuery) => {
      if (/^select/i.test(query.sql)) {
        const plan = await original(
          CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
        )
        plans.push(...plan.rows.map((row) => String((row as { detail: string }).detail)))
      }
      return original(query)
    }
    Object.assign(executor, { executeQuery: spy })
    try {
      await http.get('/image/exams?hospitalId=h-bj', alice.token)
      await http.get('/main/reports?hospitalId=h-bj', alice.token)
    } finally {
      Object.assign(executor, { executeQuery: original })
    }
    assert.ok(
      plans.some((line) => line.includes('exams_patient_idx')),
      plans.join('\n'),
    )
    // The hospital's own indexes (hospital_id first) would scan every exam or report it has.
    assert.ok(
      !plans.some((line) => /exams_accession_idx|reports_hospital_resource_uidx/.test(line)),
      plans.join('\n'),
    )
  },
)
