import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { encodePng } from '../../src/dicom/png'
import { createMessage } from '../../src/domain/messages'
import { bearer, signUp, type TestUser, validIdNumber } from '../domain/profile/support'
import { freshUid, ID_A, personInstance, readWorld, type ReadWorld } from '../dicomweb/read-support'
import { diagnosticReport, fhirHeaders } from '../fhir/support'

/*
 * Shared by the authorisation-matrix tests (not a test file). The matrix (issue 9, "security that is proved"): every operation of /openapi.json
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

export interface Fixture {
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

export type CallerName = 'owner' | 'stranger' | 'anonymous' | 'hospitalOwn' | 'hospitalOther'

export interface Request {
  method: string
  url: string
  headers?: Record<string, string>
  payload?: string | Buffer | Record<string, unknown>
}

/** Path parameters that name one of alice's records, and the value each takes in the matrix. */
export function recordParams(f: Fixture, path: string): Record<string, string>[] {
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
export const RECORD_PARAM_NAMES = new Set([
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

const OPERATORS_ONLY =
  'operators only: server/test/operator holds every operator call to 403 for anyone else'

const CONSULTATION =
  'a consultation: its patient and its expert only; server/test/consultations/authorisation walks every consultation operation (another patient, another expert, no one)'

const OPINION =
  'a consultation’s written opinion: its patient and its expert only; server/test/opinions holds another patient and another expert to 404, a patient on the expert’s calls to 403, no one to 401'

const WALLET =
  'an expert’s own wallet: another expert, a patient or no one reach nothing of it (404 / 403 / 401); server/test/wallet/authorisation walks every wallet operation'

/** Operations with a path parameter that is not a patient's record, and why. */
export const NOT_RECORDS: Record<string, string> = {
  '/main/app/agreements/{kind}': 'the published agreements',
  '/main/hospitals/{hospitalId}': 'a hospital’s public page',
  '/main/account/qr/{id}': 'a login QR code: its own tests (qr-login) hold it to its two parties',
  '/main/account/qr/{id}/scan': 'a login QR code',
  '/main/account/qr/{id}/request': 'a login QR code',
  '/main/account/qr/{id}/answer': 'a login QR code',
  '/main/shares/{token}':
    'a share link: whoever holds the token is its audience (server/test/sharing holds the rest)',
  '/main/shares/{token}/open': 'a share link (server/test/sharing: 提取码, limits, expiry)',
  '/main/articles/{articleId}': 'a published health article (server/test/content)',
  '/main/articles/{articleId}/read': 'a published health article',
  '/main/articles/{articleId}/like': 'a published health article',
  '/main/videos/{videoId}': 'a published health video',
  '/main/videos/{videoId}/position': 'where the caller stopped in a health video (their own row)',
  '/main/favourites/{kind}/{targetId}': 'the caller’s own favourites (server/test/favourites)',
  '/media/icons/{name}': 'the apps page’s built-in icons',
  '/media/{fileId}':
    'public content media (covers, posters, videos); a record’s file is refused there, even to its owner (below)',
  '/main/feedback/images/{fileId}':
    'a feedback picture: its sender and operators (server/test/feedback); a record’s file is refused there (below)',
  '/main/family/guardian-invitations/{invitationId}/code':
    'an invitation to the caller’s own phone: server/test/family/family-guardians holds it to its invitee',
  '/main/family/guardian-invitations/{invitationId}/accept':
    'an invitation to the caller’s own phone',
  '/main/family/guardian-invitations/{invitationId}/decline':
    'an invitation to the caller’s own phone',
  '/main/operator/articles/{articleId}': OPERATORS_ONLY,
  '/main/operator/articles/{articleId}/state': OPERATORS_ONLY,
  '/main/operator/videos/{videoId}/state': OPERATORS_ONLY,
  '/main/operator/feedback/{feedbackId}/reply': OPERATORS_ONLY,
  '/main/operator/features/{key}': OPERATORS_ONLY,
  '/main/operator/hospitals/{hospitalId}/keys': OPERATORS_ONLY,
  '/main/operator/hospitals/{hospitalId}/keys/{keyId}': OPERATORS_ONLY,
  '/main/operator/hospitals/{hospitalId}/room-codes': OPERATORS_ONLY,
  '/main/experts/photos/{photoId}':
    'an expert certification photo: its applicant and operators, 404 to anyone else (server/test/experts)',
  '/main/experts/application/photos/{photoId}':
    'the caller’s own certification photo: another’s is 404 (server/test/experts)',
  '/main/operator/expert-applications/{applicationId}': OPERATORS_ONLY,
  '/main/operator/expert-applications/{applicationId}/approve': OPERATORS_ONLY,
  '/main/operator/expert-applications/{applicationId}/reject': OPERATORS_ONLY,
  '/main/operator/hospital-requests/{requestId}/resolve':
    'operators only (server/test/experts/hospital-requests holds it to 403 for anyone else)',
  '/main/operator/hospital-requests/{requestId}/decline':
    'operators only (server/test/experts/hospital-requests holds it to 403 for anyone else)',
  '/main/experts/{expertId}':
    'a certified expert’s public profile; 404 when suspended or never certified, except to themself (server/test/experts)',
  '/main/operator/experts/{expertId}/suspend': OPERATORS_ONLY,
  '/main/operator/experts/{expertId}/resume': OPERATORS_ONLY,
  '/main/consultations/{consultationId}': CONSULTATION,
  '/main/consultations/{consultationId}/pay': CONSULTATION,
  '/main/consultations/{consultationId}/demo-pay': CONSULTATION,
  '/main/consultations/{consultationId}/sync-payment': CONSULTATION,
  '/main/consultations/{consultationId}/cancel': CONSULTATION,
  '/main/consultations/{consultationId}/messages': CONSULTATION,
  '/main/consultations/{consultationId}/read': CONSULTATION,
  '/main/consultations/{consultationId}/adopt': CONSULTATION,
  '/main/consultations/{consultationId}/rating': CONSULTATION,
  '/main/consultations/{consultationId}/complaint': CONSULTATION,
  '/main/consultations/{consultationId}/public': CONSULTATION,
  '/main/consultations/pictures/{pictureId}': CONSULTATION,
  '/main/expert/consultations/{consultationId}/accept': CONSULTATION,
  '/main/expert/consultations/{consultationId}/decline': CONSULTATION,
  '/main/expert/consultations/{consultationId}/answer': CONSULTATION,
  '/main/operator/consultations/{consultationId}/complaint': OPERATORS_ONLY,
  '/main/expert/consultations/{consultationId}/ai-drafts':
    'AI drafts: the consultation’s expert only, while its grant is active; server/test/ai walks every GET operation as the patient, her manager and the expert (the draft only there) and refuses another patient, another expert and a revoked grant',
  '/main/expert/consultations/{consultationId}/opinion': OPINION,
  '/main/expert/consultations/{consultationId}/opinion/draft': OPINION,
  '/main/expert/consultations/{consultationId}/opinion/sign': OPINION,
  '/main/opinions/{opinionId}': OPINION,
  '/main/expert/consultations/{consultationId}/exam-requests': CONSULTATION,
  '/main/exam-requests/{examRequestId}':
    'a 检查申请单: its consultation’s patient and expert only; server/test/exam-requests holds anyone else to 404 and no one to 401',
  '/main/opinions/{opinionId}/pdf': OPINION,
  '/main/opinions/verify/{code}':
    'public by design: a PDF’s code tells who signed what, for whom masked, and its hash; limited per network (server/test/opinions)',
  '/report-model/templates/variants/{variantId}':
    'an expert’s own report template: another expert gets 404 (server/test/opinions)',
  '/knowledge/terms/{termId}': 'a glossary term: the same text for everyone signed in',
  '/main/wallet/trades/{tradeId}': WALLET,
  '/main/wallet/withdrawals/{withdrawalId}': WALLET,
  '/main/wallet/withdrawals/{withdrawalId}/confirm': WALLET,
  '/main/wallet/withdrawals/{withdrawalId}/sync': WALLET,
  '/main/wallet/withdrawals/{withdrawalId}/cancel': WALLET,
  '/main/operator/withdrawals/{withdrawalId}/decision': OPERATORS_ONLY,
}

/**
 * Reads THROUGH a grant: their rightful caller is the grantee or the link's visitor, not the owner,
 * so the owner-reads column does not apply; server/test/sharing holds them (a stranger, another
 * grant's visitor, an ended grant).
 */
export const THROUGH_GRANT = new Set([
  '/main/shared/{grantId}',
  '/main/shared/{grantId}/exams/{examId}',
  '/main/shared/{grantId}/reports/{reportId}',
])

export function multipartFile(
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
export function bodyOf(
  method: string,
  path: string,
  f: Fixture,
): Pick<Request, 'payload' | 'headers'> {
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
    '/main/family/members/{memberId}/guardian-invitations': { mobile: '13912345678' },
    '/main/exams/{examId}/bookmarks': {
      seriesUid: f.study.series,
      sopInstanceUid: f.study.sop,
      note: '陌生人的书签',
    },
  }
  return { payload: bodies[path] ?? {} }
}

export function fill(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!))
}

export function withQuery(path: string, url: string): string {
  if (path.endsWith('/chunk')) return `${url}?offset=0`
  return url
}

/** The openapi operations, as [method, path]. */
export async function operations(world: ReadWorld): Promise<[string, string][]> {
  const response = await world.app.inject({ method: 'GET', url: '/openapi.json' })
  const doc = response.json() as { paths: Record<string, Record<string, unknown>> }
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method): [string, string] => [method, path]),
  )
}

export interface Matrix {
  world: ReadWorld
  f: Fixture
  tokens: Record<CallerName, string | undefined>
  /** Strings that only alice's records contain: none may appear in another caller's answer. */
  secrets: string[]
  /** Manages alice (an adult family link), so she is no stranger to alice's records. */
  carol: TestUser
}

/**
 * alice's records of every kind (a pushed study with its report, an upload with a photo, a bookmark,
 * an upload session, a message, a child she manages, a link grant) and the base callers.
 */
export async function matrixWorld(): Promise<Matrix> {
  const world = await readWorld()
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
    app.db.selectFrom('series').select('id').where('exam_id', '=', examId).executeTakeFirstOrThrow()
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
  const f: Fixture = {
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
  const tokens: Record<CallerName, string | undefined> = {
    owner: alice.token,
    stranger: bob.token,
    anonymous: undefined,
    hospitalOwn: hospitalA.key,
    hospitalOther: hospitalB.key,
  }
  const secrets = [
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
  return { world, f, tokens, secrets, carol }
}

/** A request as a caller with `token` (none: anonymous). */
export function askWith(world: ReadWorld, token: string | undefined, request: Request) {
  return world.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...request.headers },
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  })
}

/** Refused (401, 403 or 404) and none of the secrets in the answer. */
export function assertRefusedWith(
  secrets: readonly string[],
  who: string,
  request: Request,
  response: { statusCode: number; body: string },
) {
  const where = `${who} ${request.method} ${request.url}`
  assert.ok(
    [401, 403, 404].includes(response.statusCode),
    `${where}: ${response.statusCode} ${response.body.slice(0, 200)}`,
  )
  for (const secret of secrets) {
    assert.ok(!response.body.includes(secret), `${where} leaked ${secret}`)
  }
}
