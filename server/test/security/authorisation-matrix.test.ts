import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { encodePng } from '../../src/dicom/png'
import { createMessage } from '../../src/domain/messages'
import { EXAM_NOT_FOUND } from '../../src/domain/records/access'
import { bearer, signUp, validIdNumber } from '../domain/profile/support'
import { freshUid, ID_A, personInstance, readWorld, type ReadWorld } from '../dicomweb/read-support'
import { diagnosticReport, fhirHeaders } from '../fhir/support'

/*
 * The authorisation matrix (issue 9, "security that is proved"): every operation of /openapi.json
 * that names a record, and every DICOMweb and FHIR read, asked by every kind of caller about the
 * records of one patient (alice). Only the right callers get data: 0 leaks. The others are answered
 * 401, 403 or 404, and a stranger is answered exactly as for a record that does not exist, so the
 * answer never confirms that a record exists.
 *
 * An operation added to the API with a path parameter this file does not know FAILS the test until
 * it is put in the matrix: nothing that names a record goes unchecked.
 *
 * Callers today: the owner, another patient, no token, the key of the hospital that pushed the
 * study, another hospital's key. Grants and family members (issue 9) add theirs here.
 */

/** A grey 160×120 PNG (a report photo big enough to be kept). */
const PHOTO = encodePng(new Uint8Array(160 * 120).fill(128), 160, 120, 1)

interface Fixture {
  hospitalExam: string
  hospitalSeries: string
  uploadExam: string
  uploadSeries: string
  uploadInstance: string
  report: string
  bookmark: string
  photo: string
  uploadSession: string
  /** Alice's message, the link of the child she manages, and the link of someone managing her. */
  message: string
  memberLink: string
  managerLink: string
  /** A link grant of alice's (issue 9): its log and its revocation are hers only. */
  grant: string
  study: { study: string; series: string; sop: string }
  uploadStudy: { study: string; series: string; sop: string }
}

type CallerName = 'owner' | 'stranger' | 'anonymous' | 'hospitalOwn' | 'hospitalOther'

interface Request {
  method: string
  url: string
  headers?: Record<string, string>
  payload?: string | Buffer | Record<string, unknown>
}

/** Path parameters that name one of alice's records, and the value each takes in the matrix. */
function recordParams(f: Fixture, path: string): Record<string, string>[] {
  const upload = path.startsWith('/main/dicom-upload')
  if (path === '/main/exams/{examId}') {
    return [{ examId: f.hospitalExam }, { examId: f.uploadExam }]
  }
  if (path === '/main/exams/{examId}/series/{seriesId}/instances') {
    return [
      { examId: f.hospitalExam, seriesId: f.hospitalSeries },
      { examId: f.uploadExam, seriesId: f.uploadSeries },
    ]
  }
  return [
    {
      examId: upload ? f.uploadExam : f.hospitalExam,
      seriesId: f.hospitalSeries,
      instanceId: f.uploadInstance,
      reportId: f.report,
      bookmarkId: f.bookmark,
      fileId: f.photo,
      uploadId: f.uploadSession,
      messageId: f.message,
      memberId: f.memberLink,
      managerLinkId: f.managerLink,
      grantId: f.grant,
    },
  ]
}
const RECORD_PARAM_NAMES = new Set([
  'examId',
  'seriesId',
  'instanceId',
  'reportId',
  'bookmarkId',
  'fileId',
  'uploadId',
  'messageId',
  'memberId',
  'managerLinkId',
  'grantId',
])

/** Operations with a path parameter that is not a patient's record, and why. */
const NOT_RECORDS: Record<string, string> = {
  '/main/app/agreements/{kind}': 'the published agreements',
  '/main/hospitals/{hospitalId}': 'a hospital’s public page',
  '/main/account/qr/{id}': 'a login QR code: its own tests (qr-login) hold it to its two parties',
  '/main/account/qr/{id}/scan': 'a login QR code',
  '/main/account/qr/{id}/request': 'a login QR code',
  '/main/account/qr/{id}/answer': 'a login QR code',
  '/main/shares/{token}':
    'a share link: whoever holds the token is its audience (server/test/sharing holds the rest)',
  '/main/shares/{token}/open': 'a share link (server/test/sharing: 提取码, limits, expiry)',
}

/**
 * Reads THROUGH a grant: their rightful caller is the grantee or the link's visitor, not the owner,
 * so the owner-reads column does not apply; server/test/sharing holds them (a stranger, another
 * grant's visitor, an ended grant).
 */
const THROUGH_GRANT = new Set([
  '/main/shared/{grantId}',
  '/main/shared/{grantId}/exams/{examId}',
  '/main/shared/{grantId}/reports/{reportId}',
])

function multipartFile(
  name: string,
  type: string,
  bytes: Buffer,
): Pick<Request, 'payload' | 'headers'> {
  const boundary = '----matrix-boundary'
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  }
}

/** A body that passes validation, so the access check (not a 400) is what answers. */
function bodyOf(method: string, path: string, f: Fixture): Pick<Request, 'payload' | 'headers'> {
  if (method === 'get' || method === 'delete') return {}
  if (path.endsWith('/chunk') && method === 'put') {
    return {
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.from('not really a zip'),
    }
  }
  // The mini-program's uploadFile form of a chunk, and report photos: multipart, field `file`.
  if (path.endsWith('/chunk'))
    return multipartFile('chunk.bin', 'application/octet-stream', Buffer.from('zip?'))
  if (path.endsWith('/photos')) return multipartFile('a.png', 'image/png', PHOTO)
  const bodies: Record<string, Record<string, unknown>> = {
    '/main/reports/{reportId}/privacy': { private: true },
    '/main/reports/{reportId}/archive': { archived: true },
    '/main/dicom-upload/exams/{examId}': { title: '陌生人改的标题' },
    '/main/exams/{examId}/bookmarks': {
      seriesUid: f.study.series,
      sopInstanceUid: f.study.sop,
      note: '陌生人的书签',
    },
  }
  return { payload: bodies[path] ?? {} }
}

function fill(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!))
}

function withQuery(path: string, url: string): string {
  if (path.endsWith('/chunk')) return `${url}?offset=0`
  return url
}

/** The openapi operations, as [method, path]. */
async function operations(world: ReadWorld): Promise<[string, string][]> {
  const response = await world.app.inject({ method: 'GET', url: '/openapi.json' })
  const doc = response.json() as { paths: Record<string, Record<string, unknown>> }
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method): [string, string] => [method, path]),
  )
}

describe('the authorisation matrix: only the right callers get a record', async () => {
  let world: ReadWorld
  let f: Fixture
  let tokens: Record<CallerName, string | undefined>
  /** Strings that only alice's records contain: none may appear in another caller's answer. */
  let secrets: string[]

  before(async () => {
    world = await readWorld()
    const { app, alice, bob, hospitalA, hospitalB } = world
    const study = { study: freshUid(), series: freshUid(), sop: freshUid() }
    await world.push(hospitalA.id, [personInstance({ ...study, idNumber: ID_A, name: '张三' })])
    const fhir = await app.inject({
      method: 'POST',
      url: '/fhir/DiagnosticReport',
      headers: fhirHeaders(hospitalA.key),
      payload: diagnosticReport({
        idNumber: ID_A,
        name: '张三',
        studyUid: study.study,
        identifier: `R-${randomUUID()}`,
        conclusion: '矩阵测试专用结论',
      }),
    })
    assert.ok([200, 201].includes(fhir.statusCode), fhir.body)
    const uploadStudy = { study: freshUid(), series: freshUid(), sop: freshUid() }
    await world.upload(alice.user.id, [
      personInstance({ ...uploadStudy, idNumber: ID_A, name: '张三', description: '自传影像' }),
    ])
    const exam = (uid: string) =>
      app.db.selectFrom('exams').selectAll().where('study_uid', '=', uid).executeTakeFirstOrThrow()
    const hospitalExam = await exam(study.study)
    const uploadExam = await exam(uploadStudy.study)
    const seriesOf = (examId: string) =>
      app.db
        .selectFrom('series')
        .select('id')
        .where('exam_id', '=', examId)
        .executeTakeFirstOrThrow()
    const report = await app.db
      .selectFrom('reports')
      .select('id')
      .where('exam_id', '=', hospitalExam.id)
      .executeTakeFirstOrThrow()
    const instance = await app.db
      .selectFrom('instances')
      .select('id')
      .where('sop_instance_uid', '=', uploadStudy.sop)
      .executeTakeFirstOrThrow()

    const asAlice = (request: Request) =>
      app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: { ...bearer(alice.token), ...request.headers },
        ...(request.payload !== undefined ? { payload: request.payload } : {}),
      })
    const mark = await asAlice({
      method: 'POST',
      url: `/main/exams/${hospitalExam.id}/bookmarks`,
      payload: { seriesUid: study.series, sopInstanceUid: study.sop, note: '结节' },
    })
    assert.equal(mark.statusCode, 200, mark.body)
    const photoBody = bodyOf('post', '/main/dicom-upload/exams/{examId}/photos', {} as Fixture)
    const photo = await asAlice({
      method: 'POST',
      url: `/main/dicom-upload/exams/${uploadExam.id}/photos`,
      ...photoBody,
    })
    assert.equal(photo.statusCode, 200, photo.body)
    const session = await asAlice({
      method: 'POST',
      url: '/main/dicom-upload',
      payload: { fileName: 'later.zip', size: 1000 },
    })
    assert.equal(session.statusCode, 200, session.body)

    const message = await createMessage(
      app.db,
      { userId: alice.user.id, kind: 'system', title: '矩阵消息', body: '只给张三', link: null },
      app.now(),
    )
    const child = await asAlice({
      method: 'POST',
      url: '/main/family/children',
      payload: { name: '张小明', idNumber: validIdNumber('20200101', 77), guardianConfirmed: true },
    })
    assert.equal(child.statusCode, 200, child.body)
    // Someone other than bob manages alice (bob must stay a stranger to her records).
    const carol = await signUp(app.db, app.now())
    const managerLink = randomUUID()
    await app.db
      .insertInto('family_links')
      .values({
        id: managerLink,
        manager_user_id: carol.user.id,
        member_user_id: alice.user.id,
        kind: 'adult',
        relation: 'spouse',
        created_at: app.now().toISOString(),
        ended_at: null,
      })
      .execute()

    const grant = await app.inject({
      method: 'POST',
      url: '/main/grants',
      headers: bearer(alice.token),
      payload: { audience: 'link', examIds: [hospitalExam.id], reportIds: [], duration: '24h' },
    })
    assert.equal(grant.statusCode, 200, grant.body)
    f = {
      grant: (grant.json() as { data: { grant: { id: string } } }).data.grant.id,
      message,
      memberLink: (child.json() as { data: { id: string } }).data.id,
      managerLink,
      hospitalExam: hospitalExam.id,
      hospitalSeries: (await seriesOf(hospitalExam.id)).id,
      uploadExam: uploadExam.id,
      uploadSeries: (await seriesOf(uploadExam.id)).id,
      uploadInstance: instance.id,
      report: report.id,
      bookmark: (mark.json() as { data: { id: string } }).data.id,
      photo: (photo.json() as { data: { files: { id: string }[] } }).data.files[0]!.id,
      uploadSession: (session.json() as { data: { uploadId: string } }).data.uploadId,
      study,
      uploadStudy,
    }
    tokens = {
      owner: alice.token,
      stranger: bob.token,
      anonymous: undefined,
      hospitalOwn: hospitalA.key,
      hospitalOther: hospitalB.key,
    }
    secrets = [
      f.hospitalExam,
      f.uploadExam,
      f.report,
      f.bookmark,
      f.photo,
      f.uploadSession,
      f.message,
      f.memberLink,
      f.managerLink,
      study.study,
      uploadStudy.study,
      '矩阵测试专用结论',
      '张三',
    ]
  })

  async function ask(caller: CallerName, request: Request) {
    const token = tokens[caller]
    return world.app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...request.headers },
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
    })
  }

  function assertRefused(
    caller: CallerName,
    request: Request,
    response: { statusCode: number; body: string },
  ) {
    const where = `${caller} ${request.method} ${request.url}`
    assert.ok(
      [401, 403, 404].includes(response.statusCode),
      `${where}: ${response.statusCode} ${response.body.slice(0, 200)}`,
    )
    for (const secret of secrets) {
      assert.ok(!response.body.includes(secret), `${where} leaked ${secret}`)
    }
  }

  test('every operation that names a record is in the matrix', async () => {
    const unknown = (await operations(world)).filter(([, path]) => {
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
      return (
        params.length > 0 && !NOT_RECORDS[path] && !params.every((p) => RECORD_PARAM_NAMES.has(p))
      )
    })
    assert.deepEqual(unknown, [], 'add these operations to the authorisation matrix')
  })

  test('the API (openapi): the owner reads her records; nobody else gets any, nor learns they exist', async () => {
    const ops = (await operations(world)).filter(
      ([, path]) =>
        !THROUGH_GRANT.has(path) &&
        [...path.matchAll(/\{(\w+)\}/g)].some((m) => RECORD_PARAM_NAMES.has(m[1]!)),
    )
    assert.ok(ops.length >= 20, `only ${ops.length} record operations found`)
    let asked = 0
    for (const [method, path] of ops) {
      for (const params of recordParams(f, path)) {
        const request: Request = {
          method: method.toUpperCase(),
          url: withQuery(path, fill(path, params)),
          ...bodyOf(method, path, f),
        }
        if (method === 'get') {
          const own = await ask('owner', request)
          assert.equal(own.statusCode, 200, `owner ${request.url}: ${own.body.slice(0, 200)}`)
        }
        // The same request about a record that does not exist: a stranger's answer must equal it.
        const missing: Request = {
          ...request,
          url: withQuery(
            path,
            fill(path, Object.fromEntries(Object.keys(params).map((k) => [k, randomUUID()]))),
          ),
        }
        for (const caller of ['stranger', 'anonymous', 'hospitalOwn', 'hospitalOther'] as const) {
          const answer = await ask(caller, request)
          assertRefused(caller, request, answer)
          const absent = await ask(caller, missing)
          assert.equal(
            answer.statusCode,
            absent.statusCode,
            `${caller} ${request.method} ${request.url}: status differs from a missing record`,
          )
          assert.equal(
            (answer.json() as { error?: unknown }).error,
            (absent.json() as { error?: unknown }).error,
            `${caller} ${request.method} ${request.url}: message differs from a missing record`,
          )
          asked += 1
        }
      }
    }
    assert.ok(asked > 80)
  })

  test('nothing the others tried changed the owner’s records', async () => {
    const own = (url: string) =>
      world.app.inject({ method: 'GET', url, headers: bearer(world.alice.token) })
    const exam = await own(`/main/exams/${f.uploadExam}`)
    assert.equal(exam.statusCode, 200)
    const detail = (exam.json() as { data: { title: string; files: { id: string }[] } }).data
    assert.equal(detail.title.includes('陌生人'), false)
    assert.deepEqual(
      detail.files.map((file) => file.id),
      [f.photo],
    )
    const report = await own(`/main/reports/${f.report}`)
    const data = (report.json() as { data: { private: boolean; archived: boolean } }).data
    assert.deepEqual([data.private, data.archived], [false, false])
    const marks = await own(`/main/exams/${f.hospitalExam}/bookmarks`)
    assert.deepEqual(
      (marks.json() as { data: { id: string; note: string }[] }).data.map((m) => m.note),
      ['结节'],
    )
    const session = await own(`/main/dicom-upload/${f.uploadSession}`)
    assert.equal(session.statusCode, 200)
    const instances = await own(`/main/exams/${f.uploadExam}/series/${f.uploadSeries}/instances`)
    assert.equal((instances.json() as { data: unknown[] }).data.length, 1)
    const reports = await own('/main/reports')
    assert.ok(reports.body.includes(f.report), 'the report is still in her list')
  })

  test('lists and searches: another patient’s answers never contain her records', async () => {
    for (const [method, path] of await operations(world)) {
      if (method !== 'get' || path.includes('{')) continue
      const answer = await ask('stranger', { method: 'GET', url: path })
      for (const secret of secrets) {
        assert.ok(!answer.body.includes(secret), `stranger GET ${path} leaked ${secret}`)
      }
    }
    const studies = await ask('stranger', { method: 'GET', url: '/dicomweb/studies' })
    assert.equal(studies.statusCode === 200 || studies.statusCode === 204, true)
    for (const secret of secrets) assert.ok(!studies.body.includes(secret))
  })

  test('DICOMweb and FHIR: the owner and the pushing hospital read; no one else', async () => {
    const s = f.study
    const u = f.uploadStudy
    const instance = (x: typeof s) =>
      `/dicomweb/studies/${x.study}/series/${x.series}/instances/${x.sop}`
    const reads = (x: typeof s) => [
      {
        url: `/dicomweb/studies/${x.study}`,
        accept: 'multipart/related; type="application/dicom"',
      },
      {
        url: `/dicomweb/studies/${x.study}/series/${x.series}`,
        accept: 'multipart/related; type="application/dicom"',
      },
      { url: instance(x), accept: 'multipart/related; type="application/dicom"' },
      { url: `/dicomweb/studies/${x.study}/metadata`, accept: 'application/dicom+json' },
      {
        url: `/dicomweb/studies/${x.study}/series/${x.series}/metadata`,
        accept: 'application/dicom+json',
      },
      { url: `${instance(x)}/metadata`, accept: 'application/dicom+json' },
      {
        url: `${instance(x)}/frames/1`,
        accept: 'multipart/related; type="application/octet-stream"',
      },
      { url: `${instance(x)}/rendered`, accept: 'image/jpeg' },
      { url: `${instance(x)}/thumbnail`, accept: 'image/jpeg' },
      { url: `${instance(x)}/frames/1/rendered`, accept: 'image/jpeg' },
      { url: `${instance(x)}/frames/1/thumbnail`, accept: 'image/jpeg' },
      { url: `/dicomweb/studies/${x.study}/series/${x.series}/thumbnail`, accept: 'image/jpeg' },
      { url: `/dicomweb/studies/${x.study}/thumbnail`, accept: 'image/jpeg' },
      { url: `/dicomweb/studies/${x.study}/series`, accept: 'application/dicom+json' },
      { url: `/dicomweb/studies/${x.study}/instances`, accept: 'application/dicom+json' },
      {
        url: `/dicomweb/studies/${x.study}/series/${x.series}/instances`,
        accept: 'application/dicom+json',
      },
    ]
    const cases: { url: string; accept: string; allowed: CallerName[] }[] = [
      ...reads(s).map((r) => ({ ...r, allowed: ['owner', 'hospitalOwn'] as CallerName[] })),
      // A patient's own upload is never a hospital's.
      ...reads(u).map((r) => ({ ...r, allowed: ['owner'] as CallerName[] })),
    ]
    for (const c of cases) {
      for (const caller of Object.keys(tokens) as CallerName[]) {
        const request = { method: 'GET', url: c.url, headers: { accept: c.accept } }
        const answer = await ask(caller, request)
        if (c.allowed.includes(caller)) {
          assert.equal(answer.statusCode, 200, `${caller} ${c.url}: ${answer.body.slice(0, 200)}`)
          continue
        }
        // QIDO below a study answers an empty 200/204 to whoever cannot see the study.
        if (/\/(series|instances)$/.test(c.url) && [200, 204].includes(answer.statusCode)) {
          assert.ok(['', '[]'].includes(answer.body.trim()), `${caller} ${c.url}: ${answer.body}`)
          continue
        }
        assertRefused(caller, request, answer)
        if (answer.statusCode === 404 && caller === 'stranger') {
          assert.ok(answer.body.includes(EXAM_NOT_FOUND) || answer.body.length < 400)
        }
      }
    }
    // The hospital's FHIR read of its own report; patients read reports through the main API.
    const fhirRead = { method: 'GET', url: `/fhir/DiagnosticReport/${f.report}` }
    for (const caller of Object.keys(tokens) as CallerName[]) {
      const answer = await ask(caller, {
        ...fhirRead,
        headers: { accept: 'application/fhir+json' },
      })
      if (caller === 'hospitalOwn') assert.equal(answer.statusCode, 200, answer.body)
      else assertRefused(caller, fhirRead, answer)
    }
  })
})
