import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { GRANT_MESSAGES } from '@contract/main/grants'
import { bearer, signUp } from '../domain/profile/support'
import { freshUid, ID_B, personInstance, type ReadWorld } from '../dicomweb/read-support'
import {
  askWith,
  assertRefusedWith,
  bodyOf,
  type Fixture,
  fill,
  matrixWorld,
  operations,
  RECORD_PARAM_NAMES,
  recordParams,
  type Request,
  THROUGH_GRANT,
  withQuery,
} from './matrix-support'

/*
 * The authorisation matrix, continued (issue 9): the callers that grants and family links make.
 * alice (the owner) shares her pushed study, its report and her upload; then every operation of
 * /openapi.json that names one of her records, every read through a grant, and every DICOMweb and
 * FHIR read is asked by:
 *
 *   doctor        an expert holding her active account grant
 *   otherDoctor   an expert holding an active grant of SOMEONE ELSE's exam (bob's)
 *   expired       an expert whose grant from her has expired (on the server's clock)
 *   revoked       an expert whose grant from her was revoked
 *   visitor       a link visitor who opened her link with the right 提取码 (a yxs_ token)
 *   usedUp        a visitor of her link with maxViews 1, opened once: the session it counted goes on
 *   otherVisitor  a visitor of bob's link (a yxs_ token for another grant)
 *   manager       carol, who manages alice (an adult family link)
 *   formerManager dan, whose family link to alice has ended
 *
 * Only the right ones get data: 0 leaks. A wrong 提取码 gets no token at all, and a used-up link
 * opens no new session; both are asked below too.
 */

type GrantCaller =
  | 'doctor'
  | 'otherDoctor'
  | 'expired'
  | 'revoked'
  | 'visitor'
  | 'usedUp'
  | 'otherVisitor'
  | 'manager'
  | 'formerManager'

const CALLERS: GrantCaller[] = [
  'doctor',
  'otherDoctor',
  'expired',
  'revoked',
  'visitor',
  'usedUp',
  'otherVisitor',
  'manager',
  'formerManager',
]

/** Who reads alice's study and upload through DICOMweb (WADO), and whose grant covers them. */
const READS_IMAGES: GrantCaller[] = ['doctor', 'visitor', 'usedUp', 'manager']

/**
 * What a family manager does with a member's records on the main API, as for their own (contract
 * main/family.ts and main/grants.ts): reads the details; keeps their OWN marks and bookmarks on them
 * (stored under the manager: the member's own marks never change, checked below); manages the
 * member's grants and sees who looked. Everything else there (uploads, messages, family links) stays
 * the member's.
 */
const MANAGER_MAY = new Set([
  'get /main/exams/{examId}',
  'get /main/reports/{reportId}',
  'get /main/exams/{examId}/series/{seriesId}/instances',
  'delete /main/reports/{reportId}',
  'post /main/reports/{reportId}/privacy',
  'post /main/reports/{reportId}/archive',
  'post /main/reports/{reportId}/restore',
  'get /main/exams/{examId}/bookmarks',
  'post /main/exams/{examId}/bookmarks',
  'delete /main/grants/{grantId}',
  'get /main/grants/{grantId}/views',
  'get /main/exams/{examId}/views',
  'get /main/dicom-upload/files/{fileId}',
  // 申请AI分析 for the person they manage (issue 23): its state only, never a result.
  'get /main/exams/{examId}/ai-analysis',
  'post /main/exams/{examId}/ai-analysis',
])

/** Main-API reads that a grant opens to its holders: an upload's report photos (its exam's). */
const HOLDERS_MAY = new Set(['get /main/dicom-upload/files/{fileId}'])

describe('the authorisation matrix: grants and family members', async () => {
  let world: ReadWorld
  let f: Fixture
  let secrets: string[]
  const tokens = {} as Record<GrantCaller, string>
  /** The grant each holder reads through (absent: the caller holds none of alice's). */
  const grantOf = {} as Partial<Record<GrantCaller, string>>
  let link: { token: string; pickupCode: string }
  let usedUpLink: string

  before(async () => {
    const matrix = await matrixWorld()
    ;({ world, f, secrets } = matrix)
    const { app, alice, bob } = world
    const post = async (token: string | undefined, url: string, payload: object) => {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: token ? bearer(token) : {},
        payload,
      })
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked field by field
      return (res.json() as { data: any }).data
    }
    const aliceRecords = {
      examIds: [f.hospitalExam, f.uploadExam],
      reportIds: [f.report],
    }
    const expert = () => signUp(app.db, app.now(), { role: 'expert' })
    const accountGrant = async (from: string, mobile: string, records: object) =>
      (
        await post(from, '/main/grants', {
          audience: 'account',
          mobile,
          duration: '24h',
          ...records,
        })
      ).grant.id as string

    const doctor = await expert()
    grantOf.doctor = await accountGrant(alice.token, doctor.mobile!, aliceRecords)
    tokens.doctor = doctor.token

    // bob's own study, shared by bob: a real grant, of someone else's exam.
    const bobStudy = { study: freshUid(), series: freshUid(), sop: freshUid() }
    await world.push(world.hospitalA.id, [
      personInstance({ ...bobStudy, idNumber: ID_B, name: '李四' }),
    ])
    const bobExam = await app.db
      .selectFrom('exams')
      .select('id')
      .where('study_uid', '=', bobStudy.study)
      .executeTakeFirstOrThrow()
    const otherDoctor = await expert()
    await accountGrant(bob.token, otherDoctor.mobile!, { examIds: [bobExam.id], reportIds: [] })
    tokens.otherDoctor = otherDoctor.token

    const expired = await expert()
    grantOf.expired = await accountGrant(alice.token, expired.mobile!, aliceRecords)
    // Expired an hour ago on the server's clock (the app reads it at every request).
    await app.db
      .updateTable('grants')
      .set({ expires_at: new Date(app.now().getTime() - 3600_000).toISOString() })
      .where('id', '=', grantOf.expired)
      .execute()
    tokens.expired = expired.token

    const revoked = await expert()
    grantOf.revoked = await accountGrant(alice.token, revoked.mobile!, aliceRecords)
    const cancel = await app.inject({
      method: 'DELETE',
      url: `/main/grants/${grantOf.revoked}`,
      headers: bearer(alice.token),
    })
    assert.equal(cancel.statusCode, 200, cancel.body)
    tokens.revoked = revoked.token

    const made = await post(alice.token, '/main/grants', {
      audience: 'link',
      duration: '24h',
      pickupCode: true,
      ...aliceRecords,
    })
    link = { token: made.link.token, pickupCode: made.link.pickupCode }
    grantOf.visitor = made.grant.id
    tokens.visitor = (
      await post(undefined, `/main/shares/${link.token}/open`, { pickupCode: link.pickupCode })
    ).accessToken

    const once = await post(alice.token, '/main/grants', {
      audience: 'link',
      duration: '24h',
      maxViews: 1,
      ...aliceRecords,
    })
    usedUpLink = once.link.token
    grantOf.usedUp = once.grant.id
    tokens.usedUp = (await post(undefined, `/main/shares/${usedUpLink}/open`, {})).accessToken

    const bobLink = await post(bob.token, '/main/grants', {
      audience: 'link',
      duration: '24h',
      examIds: [bobExam.id],
      reportIds: [],
    })
    tokens.otherVisitor = (
      await post(undefined, `/main/shares/${bobLink.link.token}/open`, {})
    ).accessToken

    tokens.manager = matrix.carol.token
    const dan = await signUp(app.db, app.now())
    await app.db
      .insertInto('family_links')
      .values({
        id: randomUUID(),
        manager_user_id: dan.user.id,
        member_user_id: alice.user.id,
        kind: 'adult',
        relation: 'parent',
        created_at: app.now().toISOString(),
        ended_at: app.now().toISOString(),
      })
      .execute()
    tokens.formerManager = dan.token
  })

  const ask = (caller: GrantCaller, request: Request) => askWith(world, tokens[caller], request)
  const refused = (
    caller: GrantCaller,
    request: Request,
    response: { statusCode: number; body: string },
  ) => assertRefusedWith(secrets, caller, request, response)

  test('the API (openapi): a grant never opens the owner’s own routes; a manager reads, never changes', async () => {
    const ops = (await operations(world)).filter(
      ([, path]) =>
        !THROUGH_GRANT.has(path) &&
        [...path.matchAll(/\{(\w+)\}/g)].some((m) => RECORD_PARAM_NAMES.has(m[1]!)),
    )
    let asked = 0
    for (const [method, path] of ops) {
      for (const params of recordParams(f, path)) {
        const request: Request = {
          method: method.toUpperCase(),
          url: withQuery(path, fill(path, params)),
          ...bodyOf(method, path, f),
        }
        for (const caller of CALLERS) {
          const answer = await ask(caller, request)
          if (caller === 'manager' && MANAGER_MAY.has(`${method} ${path}`)) {
            assert.equal(
              answer.statusCode,
              200,
              `manager ${request.url}: ${answer.body.slice(0, 200)}`,
            )
            continue
          }
          if (READS_IMAGES.includes(caller) && HOLDERS_MAY.has(`${method} ${path}`)) {
            assert.equal(answer.statusCode, 200, `${caller} ${request.url}: ${answer.statusCode}`)
            continue
          }
          refused(caller, request, answer)
          asked += 1
        }
      }
    }
    assert.ok(asked > 150, `only ${asked} refusals asked`)
    // The manager's marks were the manager's: alice's report is as she left it, in her list.
    const own = (url: string) =>
      world.app.inject({ method: 'GET', url, headers: bearer(world.alice.token) })
    const report = (await own(`/main/reports/${f.report}`)).json() as {
      data: { private: boolean; archived: boolean }
    }
    assert.deepEqual([report.data.private, report.data.archived], [false, false])
    assert.ok((await own('/main/reports')).body.includes(f.report))
    const marks = (await own(`/main/exams/${f.hospitalExam}/bookmarks`)).json() as {
      data: { note: string }[]
    }
    assert.deepEqual(
      marks.data.map((m) => m.note),
      ['结节'],
    )
  })

  test('reads through a grant: its holders while it lasts; 授权已失效 to an ended grant’s holder; 404 to anyone else', async () => {
    const paths = (grantId: string) => [
      `/main/shared/${grantId}`,
      `/main/shared/${grantId}/exams/${f.hospitalExam}`,
      `/main/shared/${grantId}/exams/${f.uploadExam}`,
      `/main/shared/${grantId}/reports/${f.report}`,
    ]
    for (const holder of CALLERS) {
      const own = grantOf[holder]
      for (const caller of CALLERS) {
        // Each holder's grant, asked by everyone; callers with no grant of alice's ask the doctor's.
        const grantId = own ?? grantOf.doctor!
        if (caller !== holder && own === undefined) continue
        for (const url of paths(grantId)) {
          const request = { method: 'GET', url }
          const answer = await ask(caller, request)
          const holds = caller === holder && own !== undefined
          if (holds && ['doctor', 'visitor', 'usedUp'].includes(caller)) {
            assert.equal(answer.statusCode, 200, `${caller} ${url}: ${answer.body.slice(0, 200)}`)
            assert.match(answer.headers['cache-control'] ?? '', /no-store/)
            continue
          }
          refused(caller, request, answer)
          if (holds) {
            // expired, revoked: told it has ended (their own grant: nothing new is revealed).
            assert.equal(answer.statusCode, 403, `${caller} ${url}`)
            assert.equal((answer.json() as { error: string }).error, GRANT_MESSAGES.ended)
          } else {
            assert.equal(answer.statusCode, 404, `${caller} ${url}: ${answer.statusCode}`)
          }
        }
      }
    }
  })

  test('DICOMweb and FHIR: the grant’s holders and the manager read her images; no one else', async () => {
    const instance = (x: Fixture['study']) =>
      `/dicomweb/studies/${x.study}/series/${x.series}/instances/${x.sop}`
    const reads = (x: Fixture['study']) => [
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
      { url: `/dicomweb/studies/${x.study}/thumbnail`, accept: 'image/jpeg' },
      {
        url: `/dicomweb/studies/${x.study}`,
        accept: 'multipart/related; type="application/dicom"',
        // The stored files carry her full identity: viewing only, through a grant.
        grantHoldersRefused: true,
      },
    ]
    for (const x of [f.study, f.uploadStudy]) {
      for (const read of reads(x)) {
        for (const caller of CALLERS) {
          const request = { method: 'GET', url: read.url, headers: { accept: read.accept } }
          const answer = await ask(caller, request)
          if (READS_IMAGES.includes(caller) && read.grantHoldersRefused && caller !== 'manager') {
            assert.equal(answer.statusCode, 403, `${caller} ${read.url}`)
            assert.equal((answer.json() as { error: string }).error, GRANT_MESSAGES.noFiles)
            continue
          }
          if (READS_IMAGES.includes(caller)) {
            assert.equal(
              answer.statusCode,
              200,
              `${caller} ${read.url}: ${answer.body.slice(0, 200)}`,
            )
            continue
          }
          refused(caller, request, answer)
        }
      }
    }
    // The hospital's FHIR read is the hospital's alone: a grant or a family link does not open it.
    const fhir = {
      method: 'GET',
      url: `/fhir/DiagnosticReport/${f.report}`,
      headers: { accept: 'application/fhir+json' },
    }
    for (const caller of CALLERS) refused(caller, fhir, await ask(caller, fhir))
  })

  test('QIDO: a search finds her studies for exactly those who could retrieve them', async () => {
    for (const x of [f.study, f.uploadStudy]) {
      const searches = [
        `/dicomweb/studies?StudyInstanceUID=${x.study}`,
        '/dicomweb/studies?limit=1000',
        `/dicomweb/studies/${x.study}/series`,
        `/dicomweb/studies/${x.study}/series/${x.series}/instances`,
      ]
      for (const url of searches) {
        for (const caller of CALLERS) {
          const request = { method: 'GET', url, headers: { accept: 'application/dicom+json' } }
          const answer = await ask(caller, request)
          if (READS_IMAGES.includes(caller)) {
            assert.equal(answer.statusCode, 200, `${caller} ${url}: ${answer.body.slice(0, 200)}`)
            assert.ok(answer.body.includes(x.study), `${caller} ${url} did not find the study`)
            assert.equal(answer.headers['cache-control'], 'private, no-cache')
            continue
          }
          // Nothing of hers: an empty answer to a search, a refusal for a study named in the path.
          if (answer.statusCode === 200 || answer.statusCode === 204) {
            for (const secret of secrets) {
              assert.ok(!answer.body.includes(secret), `${caller} ${url} leaked ${secret}`)
            }
            continue
          }
          refused(caller, request, answer)
        }
      }
    }
  })

  test('QIDO through a grant is logged as a view of the exam it names', async () => {
    const { app, alice } = world
    const viewer = await signUp(app.db, app.now(), { role: 'expert' })
    const made = await app.inject({
      method: 'POST',
      url: '/main/grants',
      headers: bearer(alice.token),
      payload: {
        audience: 'account',
        mobile: viewer.mobile,
        examIds: [f.hospitalExam],
        reportIds: [],
        duration: '1h',
      },
    })
    const grantId = (made.json() as { data: { grant: { id: string } } }).data.grant.id
    const search = await askWith(world, viewer.token, {
      method: 'GET',
      url: `/dicomweb/studies?StudyInstanceUID=${f.study.study}`,
      headers: { accept: 'application/dicom+json' },
    })
    assert.equal(search.statusCode, 200, search.body)
    const views = await app.inject({
      method: 'GET',
      url: `/main/grants/${grantId}/views`,
      headers: bearer(alice.token),
    })
    const logged = (views.json() as { data: { record: { examId: string } }[] }).data
    assert.deepEqual(
      logged.map((v) => v.record.examId),
      [f.hospitalExam],
    )
  })

  test('a wrong 提取码 gets no token, and the preview names no record', async () => {
    const wrong = String((Number(link.pickupCode) + 1) % 10_000).padStart(4, '0')
    const open = await world.app.inject({
      method: 'POST',
      url: `/main/shares/${link.token}/open`,
      payload: { pickupCode: wrong },
    })
    assert.ok([400, 403].includes(open.statusCode), open.body)
    assert.ok(!open.body.includes('yxs_'))
    assert.equal((open.json() as { error: string }).error, GRANT_MESSAGES.pickupWrong)
    const preview = await world.app.inject({ method: 'GET', url: `/main/shares/${link.token}` })
    assert.equal(preview.statusCode, 200, preview.body)
    for (const secret of secrets)
      assert.ok(!preview.body.includes(secret), `preview leaked ${secret}`)
  })

  test('a used-up link opens no new session, while the one it counted goes on', async () => {
    const again = await world.app.inject({
      method: 'POST',
      url: `/main/shares/${usedUpLink}/open`,
      payload: {},
    })
    assert.equal(again.statusCode, 403, again.body)
    assert.equal((again.json() as { error: string }).error, GRANT_MESSAGES.ended)
    assert.ok(!again.body.includes('yxs_'))
    const still = await ask('usedUp', {
      method: 'GET',
      url: `/main/shared/${grantOf.usedUp}/exams/${f.hospitalExam}`,
    })
    assert.equal(still.statusCode, 200, still.body)
  })
})
