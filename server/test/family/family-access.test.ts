import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { listExams } from '@contract/image/exams'
import { envelope } from '@contract/envelope'
import { addFamilyAdult, addFamilyChild, FAMILY_MESSAGES, listFamily } from '@contract/main/family'
import { GRANT_MESSAGES } from '@contract/main/grants'
import {
  getReportDetail,
  listMyHospitals,
  listMyImages,
  listPersonalReports,
} from '@contract/main/records'
import { REPORT_NOT_VISIBLE } from '../../src/domain/patient/patient'
import { readOutbox } from '../../src/providers/sms'
import { signUp, type TestUser, validIdNumber } from '../domain/profile/support'
import { freshUid, ID_B, personInstance, readWorld, type ReadWorld } from '../dicomweb/read-support'
import { diagnosticReport, fhirHeaders } from '../fhir/support'

/*
 * 亲情卡 reach (issue 9): a guardian sees a child's records by 当前就诊人 (personId) on the lists and
 * by id on single records (details, WADO); nobody else does; a former manager sees nothing at the
 * next request. Runs on both databases (the runner's --pg).
 */

const CHILD_NAME = '张小明'
const CHILD_ID = validIdNumber('20200101', 321)

interface Study {
  study: string
  series: string
  sop: string
  examId: string
  reportId: string
}

describe('family members see each other’s records only while the link lasts', () => {
  let world: ReadWorld
  let childId: string
  let child: Study
  let bobStudy: Study

  async function call(method: string, url: string, token: string | undefined, payload?: unknown) {
    const res = await world.app.inject({
      method: method as 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    const body: unknown = res.json()
    return { status: res.statusCode, body, error: (body as { error: string | null }).error }
  }

  async function pushStudy(idNumber: string, name: string, conclusion: string): Promise<Study> {
    const uids = { study: freshUid(), series: freshUid(), sop: freshUid() }
    await world.push(world.hospitalA.id, [personInstance({ ...uids, idNumber, name })])
    const fhir = await world.app.inject({
      method: 'POST',
      url: '/fhir/DiagnosticReport',
      headers: fhirHeaders(world.hospitalA.key),
      payload: diagnosticReport({
        idNumber,
        name,
        studyUid: uids.study,
        identifier: `R-${randomUUID()}`,
        conclusion,
      }),
    })
    assert.ok([200, 201].includes(fhir.statusCode), fhir.body)
    const exam = await world.app.db
      .selectFrom('exams')
      .select('id')
      .where('study_uid', '=', uids.study)
      .executeTakeFirstOrThrow()
    const report = await world.app.db
      .selectFrom('reports')
      .select('id')
      .where('exam_id', '=', exam.id)
      .executeTakeFirstOrThrow()
    return { ...uids, examId: exam.id, reportId: report.id }
  }

  /** Exam ids in 我的影像 (all groups' latest), 我的报告 and 检查信息列表 for a token and person. */
  async function listed(token: string, personId?: string) {
    const q = personId ? `personId=${personId}` : ''
    const images = await call('GET', `/main/images?${q}`, token)
    const reports = await call('GET', `/main/reports?${q}`, token)
    const exams = await call('GET', `/image/exams?${q}`, token)
    const hospitals = await call('GET', `/main/hospitals/mine?${q}`, token)
    const data = <T>(
      res: { status: number; body: unknown },
      schema: { parse(v: unknown): { data: T | null } },
    ) => (res.status === 200 ? schema.parse(res.body).data : null)
    return {
      status: [images.status, reports.status, exams.status, hospitals.status],
      error: images.error,
      images: (data(images, envelope(listMyImages.output)) ?? []).flatMap((g) =>
        g.latest.map((e) => e.id),
      ),
      reports: (data(reports, envelope(listPersonalReports.output))?.items ?? []).map((r) => r.id),
      exams: (data(exams, envelope(listExams.output))?.items ?? []).map((e) => e.id),
      hospitals: data(hospitals, envelope(listMyHospitals.output))?.length ?? 0,
    }
  }

  /** Status of the single-record reads of a study for a token: exam, report, WADO metadata. */
  async function singleReads(token: string, s: Study) {
    const exam = await call('GET', `/main/exams/${s.examId}`, token)
    const report = await call('GET', `/main/reports/${s.reportId}`, token)
    const metadata = await world.get(
      `/dicomweb/studies/${s.study}/series/${s.series}/metadata`,
      token,
    )
    return {
      exam: exam.status,
      report: report.status,
      metadata: metadata.status,
      error: report.error,
      detail:
        report.status === 200 ? envelope(getReportDetail.output).parse(report.body).data! : null,
    }
  }

  before(async () => {
    world = await readWorld()
    const added = await call('POST', '/main/family/children', world.alice.token, {
      name: CHILD_NAME,
      idNumber: CHILD_ID,
      guardianConfirmed: true,
    })
    assert.equal(added.status, 200, JSON.stringify(added.body))
    const member = envelope(addFamilyChild.output).parse(added.body).data!
    childId = member.personId
    assert.equal(member.kind, 'child')
    assert.equal(member.nameMasked, '张**')
    child = await pushStudy(CHILD_ID, CHILD_NAME, '儿童专用结论')
    bobStudy = await pushStudy(ID_B, '李四', '李四专用结论')
  })

  test('a child’s hospital exam shows in the guardian’s lists with personId, not without', async () => {
    const forChild = await listed(world.alice.token, childId)
    assert.deepEqual(forChild.status, [200, 200, 200, 200])
    assert.ok(forChild.images.includes(child.examId))
    assert.ok(forChild.exams.includes(child.examId))
    assert.deepEqual(forChild.reports, [child.reportId])
    assert.equal(forChild.hospitals, 1)

    const own = await listed(world.alice.token)
    assert.ok(!own.images.includes(child.examId))
    assert.ok(!own.exams.includes(child.examId))
    assert.ok(!own.reports.includes(child.reportId))
    // personId = the caller is the caller's own list.
    const self = await listed(world.alice.token, world.alice.user.id)
    assert.deepEqual(self.reports, own.reports)
  })

  test('the guardian reads the child’s single records; a stranger gets 404', async () => {
    const guardian = await singleReads(world.alice.token, child)
    assert.deepEqual(
      { exam: guardian.exam, report: guardian.report, metadata: guardian.metadata },
      { exam: 200, report: 200, metadata: 200 },
    )
    assert.equal(guardian.detail!.conclusion, '儿童专用结论')
    const stranger = await singleReads(world.bob.token, child)
    assert.deepEqual(
      { exam: stranger.exam, report: stranger.report, metadata: stranger.metadata },
      { exam: 404, report: 404, metadata: 404 },
    )
  })

  test('another user naming the child (or anyone) as personId gets 403, the same for a made-up id', async () => {
    const theirs = await listed(world.bob.token, childId)
    assert.deepEqual(theirs.status, [403, 403, 403, 403])
    assert.equal(theirs.error, FAMILY_MESSAGES.notManaged)
    const madeUp = await listed(world.bob.token, randomUUID())
    assert.deepEqual(madeUp.status, [403, 403, 403, 403])
    assert.equal(madeUp.error, theirs.error)
    // The guardian naming the other adult: not managed either.
    const adult = await listed(world.alice.token, world.bob.user.id)
    assert.deepEqual(adult.status, [403, 403, 403, 403])
  })

  test('another account knowing the child’s name and ID number is refused; a removed guardian sees nothing at the next request', async () => {
    const dad = await signUp(world.app.db, new Date())
    const addChild = (token: string) =>
      call('POST', '/main/family/children', token, {
        name: CHILD_NAME,
        idNumber: CHILD_ID,
        guardianConfirmed: true,
      })
    const refused = await addChild(dad.token)
    assert.equal(refused.status, 400, JSON.stringify(refused.body))
    assert.equal(refused.error, FAMILY_MESSAGES.childGuarded)
    assert.deepEqual((await listed(dad.token, childId)).status, [403, 403, 403, 403])
    assert.equal((await singleReads(dad.token, child)).metadata, 404)
    // The guardian adding again is told the child is already there.
    assert.equal((await addChild(world.alice.token)).error, FAMILY_MESSAGES.already)

    // alice ends her link: from the next request she sees nothing of the child.
    const family = await call('GET', '/main/family', world.alice.token)
    const link = envelope(listFamily.output)
      .parse(family.body)
      .data!.members.find((m) => m.personId === childId)!
    const removed = await call('DELETE', `/main/family/members/${link.id}`, world.alice.token)
    assert.equal(removed.status, 200, JSON.stringify(removed.body))
    assert.deepEqual((await listed(world.alice.token, childId)).status, [403, 403, 403, 403])
    const reads = await singleReads(world.alice.token, child)
    assert.deepEqual(
      { exam: reads.exam, report: reads.report, metadata: reads.metadata },
      { exam: 404, report: 404, metadata: 404 },
    )
    assert.equal(reads.error, REPORT_NOT_VISIBLE)
    // Removing again: the link is gone.
    const again = await call('DELETE', `/main/family/members/${link.id}`, world.alice.token)
    assert.equal(again.status, 404)
    assert.equal(again.error, FAMILY_MESSAGES.notFound)

    // A child nobody guards any more can be added again, as the same person with their records.
    const added = await addChild(dad.token)
    assert.equal(added.status, 200, JSON.stringify(added.body))
    assert.equal(envelope(addFamilyChild.output).parse(added.body).data!.personId, childId)
    assert.ok((await listed(dad.token, childId)).reports.includes(child.reportId))
  })

  test('an adult member: seen after agreeing by SMS, private reports stay theirs, leaving ends it', async () => {
    const carol = await signUp(world.app.db, new Date())
    const bob = world.bob as TestUser
    const sent = await call('POST', '/main/family/adults/code', carol.token, { mobile: bob.mobile })
    assert.equal(sent.status, 200, JSON.stringify(sent.body))
    const code = (await readOutbox(world.app.db, bob.mobile!, { purposes: ['family'] })).at(
      -1,
    )!.code
    const added = await call('POST', '/main/family/adults', carol.token, {
      mobile: bob.mobile,
      code,
      relation: 'spouse',
    })
    assert.equal(added.status, 200, JSON.stringify(added.body))
    const member = envelope(addFamilyAdult.output).parse(added.body).data!
    assert.equal(member.personId, bob.user.id)
    assert.equal(member.relationLabel, '配偶')
    assert.ok((await listed(carol.token, bob.user.id)).reports.includes(bobStudy.reportId))
    const seen = await singleReads(carol.token, bobStudy)
    assert.equal(seen.report, 200)
    assert.equal(seen.detail!.conclusion, '李四专用结论')

    // carol shares bob's record: a link, and an account grant to dave.
    const dave = await signUp(world.app.db, new Date())
    const share = (audience: 'link' | 'account') =>
      call('POST', '/main/grants', carol.token, {
        audience,
        examIds: [bobStudy.examId],
        reportIds: [bobStudy.reportId],
        duration: '30d',
        personId: bob.user.id,
        ...(audience === 'account' ? { mobile: dave.mobile } : {}),
      })
    const linkGrant = (await share('link')).body as {
      data: { grant: { id: string }; link: { token: string } }
    }
    const daveGrant = ((await share('account')).body as { data: { grant: { id: string } } }).data
      .grant
    const visit = async () => {
      const opened = await call(
        'POST',
        `/main/shares/${linkGrant.data.link.token}/open`,
        undefined,
        {},
      )
      return {
        status: opened.status,
        token: (opened.body as { data?: { accessToken?: string } }).data?.accessToken,
      }
    }
    const visitor = await visit()
    const sharedReport = (token: string, grantId: string) =>
      call('GET', `/main/shared/${grantId}/reports/${bobStudy.reportId}`, token)
    assert.equal((await sharedReport(visitor.token!, linkGrant.data.grant.id)).status, 200)
    assert.equal((await sharedReport(dave.token, daveGrant.id)).status, 200)
    const listedBefore = (await call('GET', '/main/grants/received', dave.token)).body as {
      data: { id: string; records: { kind: string }[] }[]
    }
    assert.deepEqual(
      listedBefore.data
        .find((g) => g.id === daveGrant.id)
        ?.records.map((r) => r.kind)
        .sort(),
      ['exam', 'report'],
    )

    // bob makes his report private: gone from carol's list of him, locked to her.
    const privacy = await call('POST', `/main/reports/${bobStudy.reportId}/privacy`, bob.token, {
      private: true,
    })
    assert.equal(privacy.status, 200, JSON.stringify(privacy.body))
    assert.ok(!(await listed(carol.token, bob.user.id)).reports.includes(bobStudy.reportId))
    const locked = await singleReads(carol.token, bobStudy)
    assert.equal(locked.detail!.locked, true)
    assert.equal(locked.detail!.conclusion, null)
    const unprivate = await call('POST', `/main/reports/${bobStudy.reportId}/privacy`, bob.token, {
      private: false,
    })
    assert.equal(unprivate.status, 403) // needs bob's own unlock; the row stays private for the rest
    // bob never chose carol's grants: his privacy locks the report to them too, and dave's
    // 共享给我的 no longer lists it.
    assert.equal((await sharedReport(visitor.token!, linkGrant.data.grant.id)).status, 404)
    assert.equal((await sharedReport(dave.token, daveGrant.id)).status, 404)
    const received = (await call('GET', '/main/grants/received', dave.token)).body as {
      data: { id: string; records: { kind: string }[] }[]
    }
    assert.deepEqual(
      received.data.find((g) => g.id === daveGrant.id)?.records.map((r) => r.kind),
      ['exam'],
    )

    // bob sees who manages him and ends it from his own account.
    const family = await call('GET', '/main/family', bob.token)
    const managers = envelope(listFamily.output).parse(family.body).data!.managers
    const link = managers.find((m) => m.id === member.id)
    assert.ok(link, JSON.stringify(family.body))
    const left = await call('DELETE', `/main/family/managers/${link.id}`, bob.token)
    assert.equal(left.status, 200, JSON.stringify(left.body))
    // carol's grants of bob's records end with her management, at the next request.
    const afterLeaving = await visit()
    assert.equal(afterLeaving.status, 403)
    const daveExam = await call(
      'GET',
      `/main/shared/${daveGrant.id}/exams/${bobStudy.examId}`,
      dave.token,
    )
    assert.equal(daveExam.status, 403)
    assert.equal(daveExam.error, GRANT_MESSAGES.ended)
    const visitorExam = await call(
      'GET',
      `/main/shared/${linkGrant.data.grant.id}/exams/${bobStudy.examId}`,
      visitor.token,
    )
    assert.equal(visitorExam.status, 403)
    // bob sees them in his own 授权记录 as 已撤销.
    const bobGrants = (await call('GET', '/main/grants', bob.token)).body as {
      data: { id: string; status: string }[]
    }
    for (const id of [linkGrant.data.grant.id, daveGrant.id])
      assert.equal(bobGrants.data.find((g) => g.id === id)?.status, 'revoked', id)
    assert.deepEqual((await listed(carol.token, bob.user.id)).status, [403, 403, 403, 403])
    const reads = await singleReads(carol.token, bobStudy)
    assert.deepEqual(
      { exam: reads.exam, report: reads.report, metadata: reads.metadata },
      { exam: 404, report: 404, metadata: 404 },
    )
  })
})
