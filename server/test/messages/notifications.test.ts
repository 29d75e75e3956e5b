import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import type { Message } from '@contract/main/messages'
import type { SubscribeNotice } from '../../src/providers/subscribe-message'
import { signUp, validIdNumber } from '../domain/profile/support'
import { ID_A } from '../dicomweb/read-support'
import { diagnosticReport, fhirHeaders, type ReportOptions, studyUid } from '../fhir/support'
import { sharingWorld, type SharingWorld } from '../sharing/support'

/*
 * Issue 18: the server tells people in 我的消息 when something reaches them. A grant to an account
 * is a 授权提醒 to the grantee that opens the shared records (and nothing once the grant has ended);
 * a hospital report that belongs to an account is a 报告通知 per stored version (a retry tells
 * nothing, an amendment says 报告已更正), naming the hospital and the exam's type, never findings.
 */

const CONCLUSION = '右肺上叶结节，建议随访'
const FINDINGS = '右肺上叶见一枚磨玻璃结节'

let w: SharingWorld
/** What the WeChat subscribe-message adapter was asked to send. */
const sent: SubscribeNotice[] = []

before(async () => {
  w = await sharingWorld(
    {},
    {
      subscribe: {
        async send(notice) {
          sent.push(notice)
          return { sent: true }
        },
      },
    },
  )
})

async function messages(token: string, kind?: 'report' | 'grant'): Promise<Message[]> {
  const res = await w.call(
    'GET',
    `/main/messages?page=1&pageSize=50${kind ? `&kind=${kind}` : ''}`,
    token,
  )
  assert.equal(res.status, 200, JSON.stringify(res))
  return res.data.items as Message[]
}

async function push(options: ReportOptions) {
  // Lists are newest first: each event at its own time.
  w.clock.advance(1000)
  const res = await w.app.inject({
    method: 'POST',
    url: '/fhir/DiagnosticReport',
    headers: fhirHeaders(w.key),
    payload: diagnosticReport({ conclusion: CONCLUSION, findings: FINDINGS, ...options }),
  })
  assert.ok([200, 201].includes(res.statusCode), res.body)
  return (res.json() as { id: string }).id
}

async function allMessageCount(): Promise<number> {
  const row = await w.app.db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

function assertNoFindings(list: readonly Message[]) {
  for (const message of list) {
    assert.ok(!`${message.title}${message.body}`.includes(CONCLUSION), message.body)
    assert.ok(!`${message.title}${message.body}`.includes(FINDINGS), message.body)
  }
}

describe('a grant to an account', () => {
  test('the grantee gets a 授权提醒 that opens the shared records, and nothing once revoked', async () => {
    const s = await w.pushStudy()
    const before = await messages(w.bob.token, 'grant')
    const made = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'account',
      mobile: w.bob.mobile,
      examIds: [s.examId],
      reportIds: [s.reportId],
      duration: '24h',
    })
    assert.equal(made.status, 200, JSON.stringify(made))
    const grantId = made.data.grant.id as string
    assert.deepEqual(
      sent.filter((n) => n.template === 'grant-received').map((n) => n.userId),
      [w.bob.user.id],
    )

    const after = await messages(w.bob.token, 'grant')
    assert.equal(after.length, before.length + 1)
    const message = after[0]!
    assert.equal(message.kindLabel, '授权提醒')
    assert.equal(message.read, false)
    assert.equal(message.title, '您收到一份授权')
    // Masked sharer, the hospital and what was shared; never the report's text.
    assert.match(message.body, /张\*/)
    assert.match(message.body, /示例市分享医院/)
    assert.match(message.body, /的影像和报告/)
    assert.ok(!message.body.includes('分享测试结论'))
    assert.deepEqual(message.link, { route: 'share', params: { grantId } })

    // The link opens: the grantee reads the grant's records (the share page's call).
    const opened = await w.call('GET', `/main/shared/${grantId}`, w.bob.token)
    assert.equal(opened.status, 200, JSON.stringify(opened))
    assert.deepEqual((opened.data.records as { kind: string }[]).map((r) => r.kind).sort(), [
      'exam',
      'report',
    ])
    // Nobody else got it; the sharer gets no message for her own act.
    assert.ok(!(await messages(w.carol.token)).some((m) => m.link?.params.grantId === grantId))
    assert.ok(!(await messages(w.alice.token)).some((m) => m.link?.params.grantId === grantId))

    // Revoked: the message stays, and what it opens says 授权已失效 and shows nothing.
    const revoked = await w.call('DELETE', `/main/grants/${grantId}`, w.alice.token)
    assert.equal(revoked.status, 200, JSON.stringify(revoked))
    const ended = await w.call('GET', `/main/shared/${grantId}`, w.bob.token)
    assert.equal(ended.status, 403)
    assert.equal(ended.error, '授权已失效')
    assert.equal(ended.data, null)
    // Revoking writes no message to the grantee (the page says it when they look).
    assert.equal((await messages(w.bob.token, 'grant')).length, after.length)
  })

  test('a link grant messages nobody; an account grant only its grantee', async () => {
    const count = await allMessageCount()
    const notices = sent.length
    for (const audience of ['link', 'account'] as const) {
      const made = await w.call('POST', '/main/grants', w.alice.token, {
        audience,
        ...(audience === 'account' ? { mobile: w.carol.mobile } : {}),
        examIds: [w.study.examId],
        reportIds: [],
        duration: '1h',
      })
      assert.equal(made.status, 200, JSON.stringify(made))
    }
    assert.equal(await allMessageCount(), count + 1)
    assert.deepEqual(
      sent.slice(notices).map((n) => n.userId),
      [w.carol.user.id],
    )
    assert.equal((await messages(w.carol.token, 'grant'))[0]!.title, '您收到一份授权')
  })
})

describe('报告通知 for hospital reports', () => {
  test('three reports are three unread 报告通知; a retry adds none; an amendment adds 报告已更正', async () => {
    const before = await messages(w.alice.token, 'report')
    const unreadBefore = (await w.call('GET', '/main/messages/unread', w.alice.token)).data
      .total as number
    const notices = sent.length
    const identifiers = [1, 2, 3].map(() => `R-${randomUUID()}`)
    const studies = identifiers.map(() => studyUid())
    const ids: string[] = []
    for (const [i, identifier] of identifiers.entries()) {
      ids.push(await push({ idNumber: ID_A, name: '张三', identifier, studyUid: studies[i] }))
    }
    const after = await messages(w.alice.token, 'report')
    assert.equal(after.length, before.length + 3)
    const fresh = after.slice(0, 3)
    assert.deepEqual(fresh.map((m) => m.link?.params.id).sort(), [...ids].sort())
    for (const message of fresh) {
      assert.equal(message.kindLabel, '报告通知')
      assert.equal(message.read, false)
      assert.equal(message.title, '新报告已出具')
      assert.match(message.body, /示例市分享医院/)
      assert.equal(message.link?.route, 'reportDetail')
    }
    assertNoFindings(after)
    const unread = (await w.call('GET', '/main/messages/unread', w.alice.token)).data.total
    assert.equal(unread, unreadBefore + 3)
    // The WeChat notices went out after each commit, with no report text in them either.
    const pushed = sent.slice(notices)
    assert.deepEqual(
      pushed.map((n) => [n.template, n.userId]),
      [1, 2, 3].map(() => ['report-ready', w.alice.user.id]),
    )
    assert.ok(!JSON.stringify(pushed).includes(CONCLUSION))

    // Each opens its report.
    const report = await w.call('GET', `/main/reports/${fresh[0]!.link!.params.id}`, w.alice.token)
    assert.equal(report.status, 200, JSON.stringify(report))

    // The hospital sends the first one again, unchanged (a retry after a timeout): nothing new.
    await push({ idNumber: ID_A, name: '张三', identifier: identifiers[0], studyUid: studies[0] })
    assert.equal((await messages(w.alice.token, 'report')).length, before.length + 3)
    // A change of a final report that does not say it amends it is refused: no message either.
    const refused = await w.app.inject({
      method: 'POST',
      url: '/fhir/DiagnosticReport',
      headers: fhirHeaders(w.key),
      payload: diagnosticReport({
        idNumber: ID_A,
        name: '张三',
        identifier: identifiers[0],
        studyUid: studies[0],
        conclusion: '改过的结论',
      }),
    })
    assert.equal(refused.statusCode, 422, refused.body)
    assert.equal((await messages(w.alice.token, 'report')).length, before.length + 3)

    // It amends it: one more, saying so, opening the same report.
    await push({
      idNumber: ID_A,
      name: '张三',
      identifier: identifiers[0],
      studyUid: studies[0],
      status: 'amended',
      conclusion: `${CONCLUSION}（已复核）`,
    })
    const amended = await messages(w.alice.token, 'report')
    assert.equal(amended.length, before.length + 4)
    assert.equal(amended[0]!.title, '报告已更正')
    assert.deepEqual(amended[0]!.link, { route: 'reportDetail', params: { id: ids[0] } })
    assertNoFindings(amended)
    // The same amendment again: still one.
    await push({
      idNumber: ID_A,
      name: '张三',
      identifier: identifiers[0],
      studyUid: studies[0],
      status: 'amended',
      conclusion: `${CONCLUSION}（已复核）`,
    })
    assert.equal((await messages(w.alice.token, 'report')).length, before.length + 4)
  })

  test('preliminary, then final: told twice, each as what it is', async () => {
    const identifier = `R-${randomUUID()}`
    const study = studyUid()
    const id = await push({
      idNumber: ID_A,
      name: '张三',
      identifier,
      studyUid: study,
      status: 'preliminary',
    })
    assert.equal((await messages(w.alice.token, 'report'))[0]!.title, '初步报告已出具')
    await push({ idNumber: ID_A, name: '张三', identifier, studyUid: study, status: 'final' })
    const [latest] = await messages(w.alice.token, 'report')
    assert.equal(latest!.title, '正式报告已出具')
    assert.equal(latest!.link?.params.id, id)
  })

  test('a burst of the same new report tells once', async () => {
    const before = (await messages(w.alice.token, 'report')).length
    const options = {
      idNumber: ID_A,
      name: '张三',
      identifier: `R-${randomUUID()}`,
      studyUid: studyUid(),
    }
    await Promise.all(Array.from({ length: 5 }, () => push(options)))
    assert.equal((await messages(w.alice.token, 'report')).length, before + 1)
  })

  test('a report for nobody’s card tells nobody, and no one else’s name reaches a message', async () => {
    const count = await allMessageCount()
    await push({
      idNumber: validIdNumber('19800101', 901),
      name: '王无主',
      identifier: `R-${randomUUID()}`,
    })
    // Alice's number with another name is not alice (access.ts: number AND name).
    await push({ idNumber: ID_A, name: '张冒名', identifier: `R-${randomUUID()}` })
    // Hers (to show the count would move): one message, to her, naming neither stranger.
    await push({ idNumber: ID_A, name: '张三', identifier: `R-${randomUUID()}` })
    assert.equal(await allMessageCount(), count + 1)
    const rows = await w.app.db
      .selectFrom('messages')
      .selectAll()
      .orderBy('created_at', 'desc')
      .limit(1)
      .execute()
    assert.equal(rows[0]!.user_id, w.alice.user.id)
    assert.ok(!/王无主|张冒名/.test(`${rows[0]!.title}${rows[0]!.body}`))
  })

  test('the 报告出具 switch off: reports are stored, nothing is written; on again: told', async () => {
    const saved = await w.call('PUT', '/main/account/notice', w.alice.token, { reportReady: false })
    assert.equal(saved.status, 200, JSON.stringify(saved))
    const before = (await messages(w.alice.token, 'report')).length
    const notices = sent.length
    const id = await push({ idNumber: ID_A, name: '张三', identifier: `R-${randomUUID()}` })
    assert.equal((await messages(w.alice.token, 'report')).length, before)
    assert.equal(sent.length, notices)
    assert.equal((await w.call('GET', `/main/reports/${id}`, w.alice.token)).status, 200)
    await w.call('PUT', '/main/account/notice', w.alice.token, { reportReady: true })
    await push({ idNumber: ID_A, name: '张三', identifier: `R-${randomUUID()}` })
    assert.equal((await messages(w.alice.token, 'report')).length, before + 1)
  })

  test('a child’s report reaches the guardian, and opens for them', async () => {
    const childId = validIdNumber('20200505', 515)
    const added = await w.call('POST', '/main/family/children', w.carol.token, {
      name: '王小童',
      idNumber: childId,
      guardianConfirmed: true,
    })
    assert.equal(added.status, 200, JSON.stringify(added))
    const before = (await messages(w.carol.token, 'report')).length
    const id = await push({ idNumber: childId, name: '王小童', identifier: `R-${randomUUID()}` })
    const after = await messages(w.carol.token, 'report')
    assert.equal(after.length, before + 1)
    assert.deepEqual(after[0]!.link, { route: 'reportDetail', params: { id } })
    assert.equal((await w.call('GET', `/main/reports/${id}`, w.carol.token)).status, 200)
  })

  test('binding the ID card later tells once how many reports it found', async () => {
    const late = await signUp(w.app.db, w.clock.now())
    const idNumber = validIdNumber('19750606', 606)
    await push({ idNumber, name: '赵迟到', identifier: `R-${randomUUID()}` })
    await push({ idNumber, name: '赵迟到', identifier: `R-${randomUUID()}` })
    assert.equal((await messages(late.token)).length, 0)

    const bound = await w.call('POST', '/main/account/idcard', late.token, {
      realName: '赵迟到',
      idCard: idNumber,
    })
    assert.equal(bound.status, 200, JSON.stringify(bound))
    const found = await messages(late.token, 'report')
    assert.equal(found.length, 1)
    assert.equal(found[0]!.title, '您有 2 份新报告')
    assert.deepEqual(found[0]!.link, { route: 'myReports', params: {} })
    assertNoFindings(found)

    // The same bind again (a retried request) says nothing more; the next report is its own.
    await w.call('POST', '/main/account/idcard', late.token, {
      realName: '赵迟到',
      idCard: idNumber,
    })
    assert.equal((await messages(late.token, 'report')).length, 1)
    await push({ idNumber, name: '赵迟到', identifier: `R-${randomUUID()}` })
    assert.equal((await messages(late.token, 'report')).length, 2)
  })
})
