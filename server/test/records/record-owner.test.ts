import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { ingestFiles } from '../../src/domain/ingest/ingest'
import { freshUid, personInstance } from '../dicomweb/read-support'
import { validIdNumber } from '../domain/profile/support'
import { sharingWorld, type SharingWorld } from '../sharing/support'

/*
 * Every record says whose it is (issue 9), from the caller's point of view: the owner reads 本人,
 * a guardian reads the child's relation and masked name, whoever reads through a grant reads the
 * sharer's masked name. The personId is the one createGrant takes, so 授权 from a member's exam makes
 * the member's grant. Runs on both databases (the runner's --pg).
 */

const CHILD_NAME = '张小明'
const CHILD_ID = validIdNumber('20200101', 654)

describe('whose record: owner on exam and report details', () => {
  let w: SharingWorld
  let childId: string
  let childExam: string

  before(async () => {
    w = await sharingWorld()
    const added = await w.call('POST', '/main/family/children', w.alice.token, {
      name: CHILD_NAME,
      idNumber: CHILD_ID,
      guardianConfirmed: true,
    })
    assert.equal(added.status, 200, JSON.stringify(added))
    childId = added.data.personId
    const uids = { study: freshUid(), series: freshUid(), sop: freshUid() }
    await ingestFiles(
      { db: w.app.db, store: w.app.store, cipher: w.app.personalCipher, now: w.clock.now },
      { kind: 'hospital', hospitalId: 'h-share' },
      [personInstance({ ...uids, idNumber: CHILD_ID, name: CHILD_NAME })],
    )
    childExam = (
      await w.app.db
        .selectFrom('exams')
        .select('id')
        .where('study_uid', '=', uids.study)
        .executeTakeFirstOrThrow()
    ).id
  })

  test('the owner reads 本人 on her exam and report, with the study UID on the report', async () => {
    const exam = await w.call('GET', `/main/exams/${w.study.examId}`, w.alice.token)
    assert.equal(exam.status, 200)
    assert.deepEqual(exam.data.owner, {
      personId: w.alice.user.id,
      relation: 'self',
      label: '本人',
    })
    const report = await w.call('GET', `/main/reports/${w.study.reportId}`, w.alice.token)
    assert.equal(report.status, 200)
    assert.deepEqual(report.data.owner, exam.data.owner)
    assert.equal(report.data.studyUid, w.study.study)
  })

  test('a guardian reads the child’s relation and masked name, and grants it as the child’s', async () => {
    const exam = await w.call('GET', `/main/exams/${childExam}`, w.alice.token)
    assert.equal(exam.status, 200, JSON.stringify(exam))
    assert.deepEqual(exam.data.owner, { personId: childId, relation: 'family', label: '子女 张**' })
    assert.ok(!JSON.stringify(exam.data.owner).includes(CHILD_NAME))

    // 授权 from the child's exam sends the owner's personId: the grant is the child's.
    const granted = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'link',
      examIds: [childExam],
      reportIds: [],
      duration: '1h',
      personId: exam.data.owner.personId,
    })
    assert.equal(granted.status, 200, JSON.stringify(granted))
    assert.equal(granted.data.grant.personId, childId)
    const childGrants = await w.call('GET', `/main/grants?personId=${childId}`, w.alice.token)
    assert.deepEqual(
      childGrants.data.map((g: { id: string }) => g.id),
      [granted.data.grant.id],
    )
    const own = await w.call('GET', '/main/grants', w.alice.token)
    assert.ok(!own.data.some((g: { id: string }) => g.id === granted.data.grant.id))
  })

  test('a grantee reads the sharer’s masked name, never the name itself', async () => {
    const created = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'account',
      mobile: w.bob.mobile,
      examIds: [w.study.examId],
      reportIds: [w.study.reportId],
      duration: '1h',
    })
    assert.equal(created.status, 200, JSON.stringify(created))
    const grantId = created.data.grant.id
    const exam = await w.call('GET', `/main/shared/${grantId}/exams/${w.study.examId}`, w.bob.token)
    assert.equal(exam.status, 200, JSON.stringify(exam))
    assert.deepEqual(exam.data.owner, {
      personId: w.alice.user.id,
      relation: 'grant',
      label: '张* 分享',
    })
    const report = await w.call(
      'GET',
      `/main/shared/${grantId}/reports/${w.study.reportId}`,
      w.bob.token,
    )
    assert.equal(report.status, 200, JSON.stringify(report))
    assert.deepEqual(report.data.owner, exam.data.owner)
    assert.equal(report.data.studyUid, w.study.study)
    assert.ok(!JSON.stringify(report.data.owner).includes('张三'))
  })
})
