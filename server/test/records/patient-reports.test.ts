import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import {
  getReportDetail,
  listPersonalReports,
  REPORT_UNLOCK_TTL_SECONDS,
} from '@contract/main/records'
import { envelope } from '@contract/envelope'
import { createSession } from '../../src/domain/identity'
import { REPORT_NOT_VISIBLE, UNLOCK_REQUIRED } from '../../src/domain/patient/patient'
import type { ProfileApp } from '../domain/profile/support'
import { readOutbox } from '../../src/providers/sms'
import { signUp } from '../domain/profile/support'
import {
  addHospital,
  amendReport,
  buildPatientApp,
  client,
  insertExam,
  insertReport,
  PASSWORD,
  type Patient,
  patientWithCard,
} from './patient-support'

let ctx: ProfileApp
let http: ReturnType<typeof client>
let alice: Patient
let bob: Patient
/** Report ids of alice at hospital A (12, newest first) and B (2). */
const aliceA: string[] = []
const aliceB: string[] = []
let bobReport: string

const ListSchema = envelope(listPersonalReports.output)
const DetailSchema = envelope(getReportDetail.output)

before(async () => {
  ctx = await buildPatientApp()
  http = client(ctx.app)
  const { db } = ctx.app
  const cipher = ctx.app.personalCipher
  await addHospital(db, { id: 'h-a', name: '示例甲医院', regionCode: '110101' })
  await addHospital(db, { id: 'h-b', name: '示例乙医院', regionCode: '310101' })
  alice = await patientWithCard(ctx, '张三')
  bob = await patientWithCard(ctx, '李四')
  // 12 at hospital A, one a day in April; issued at the study day, so newest first is day 12 .. 1.
  for (let day = 1; day <= 12; day += 1) {
    const date = `2030-04-${String(day).padStart(2, '0')}`
    const exam = await insertExam(db, cipher, {
      hospitalId: 'h-a',
      patient: alice,
      studyDate: date,
      description: `检查${day}`,
    })
    aliceA.unshift(
      await insertReport(db, exam, {
        issuedAt: `${date}T10:00:00Z`,
        conclusion: `结论${day}：`.padEnd(80, '无'),
      }),
    )
  }
  for (let day = 20; day <= 21; day += 1) {
    const exam = await insertExam(db, cipher, {
      hospitalId: 'h-b',
      patient: alice,
      studyDate: `2030-03-${day}`,
    })
    aliceB.unshift(await insertReport(db, exam, { issuedAt: `2030-03-${day}T10:00:00Z` }))
  }
  const bobExam = await insertExam(db, cipher, { hospitalId: 'h-a', patient: bob })
  bobReport = await insertReport(db, bobExam, { conclusion: '李四的结论' })
  // Same ID number as alice, another name: not alice's (both digests must match).
  await insertReport(
    db,
    await insertExam(db, cipher, {
      hospitalId: 'h-a',
      patient: { idNumber: alice.idNumber, name: '王五' },
    }),
  )
})

async function list(token: string, query = '') {
  const res = await http.get(`/main/reports${query}`, token)
  assert.equal(res.statusCode, 200, res.body)
  return ListSchema.parse(res.json()).data
}

async function detail(token: string, reportId: string, ticket?: string) {
  const res = await http.get(
    `/main/reports/${reportId}${ticket ? `?ticket=${encodeURIComponent(ticket)}` : ''}`,
    token,
  )
  assert.equal(res.statusCode, 200, res.body)
  return DetailSchema.parse(res.json()).data
}

test('my reports: 10 a page (the spec default), newest first, total and unread', async () => {
  const first = await list(alice.token)
  assert.equal(first.pageSize, 10)
  assert.equal(first.total, 14)
  assert.equal(first.unread, 14)
  assert.deepEqual(
    first.items.map((item) => item.id),
    [...aliceA.slice(0, 10)],
  )
  const second = await list(alice.token, '?page=2')
  assert.deepEqual(
    second.items.map((item) => item.id),
    [...aliceA.slice(10), ...aliceB],
  )
  const beyond = await list(alice.token, '?page=3')
  assert.deepEqual(beyond.items, [])
  assert.equal(beyond.total, 14)
  // Past the end no row carries the counts: they are asked apart, unread too.
  assert.equal(beyond.unread, 14)
  const beyondUnread = await list(alice.token, '?page=3&unreadOnly=1')
  assert.deepEqual([beyondUnread.total, beyondUnread.unread], [14, 14])

  const item = first.items[0]!
  assert.equal(item.hospital.name, '示例甲医院')
  assert.equal(item.title, '检查12')
  assert.equal(item.statusLabel, '正式报告')
  assert.equal(item.read, false)
  assert.equal(item.private, false)
  assert.ok(item.summary!.startsWith('结论12'))
  assert.ok([...item.summary!].length <= 61, 'summary cut to 60 characters and an ellipsis')
})

test('my reports: hospital and date filters; bad filters answer 400 in Chinese', async () => {
  const onlyB = await list(alice.token, '?hospitalId=h-b')
  assert.deepEqual(
    onlyB.items.map((item) => item.id),
    aliceB,
  )
  const range = await list(alice.token, '?dateFrom=2030-04-03&dateTo=2030-04-05')
  assert.deepEqual(
    range.items.map((item) => item.title),
    ['检查5', '检查4', '检查3'],
  )
  assert.equal(range.total, 3)

  const bad = await http.get('/main/reports?dateFrom=2030/04/03', alice.token)
  assert.equal(bad.statusCode, 400)
  assert.match(bad.json().error, /日期格式应为 YYYY-MM-DD/)
  const big = await http.get('/main/reports?pageSize=51', alice.token)
  assert.equal(big.statusCode, 400)
  assert.match(big.json().error, /每页最多 50 条/)
  const anonymous = await http.get('/main/reports')
  assert.equal(anonymous.statusCode, 401)
})

test('read marks: opening marks read; an amended report is unread again and shows its history', async () => {
  const reportId = aliceA[0]!
  const opened = await detail(alice.token, reportId)
  assert.equal(opened.read, true)
  assert.equal(opened.locked, false)
  assert.equal(opened.findings, '双肺纹理清晰。')
  assert.equal(opened.performer, '王医生')
  assert.equal(opened.reviewer, '李主任')
  assert.deepEqual(opened.history, [])
  let mine = await list(alice.token)
  assert.equal(mine.items.find((item) => item.id === reportId)!.read, true)
  assert.equal(mine.unread, 13)
  assert.equal((await list(alice.token, '?unreadOnly=1')).total, 13)
  const beyond = await list(alice.token, '?page=3')
  assert.deepEqual([beyond.total, beyond.unread], [14, 13])

  ctx.clock.advance(60_000)
  await amendReport(ctx.app.db, reportId, {
    conclusion: '修订：右肺上叶小结节。',
    findings: '右肺上叶见 4mm 结节。',
    at: new Date(ctx.clock.now().getTime() + 1000).toISOString(),
  })
  mine = await list(alice.token)
  assert.equal(mine.items.find((item) => item.id === reportId)!.read, false, 'amended: new to them')
  assert.equal(mine.unread, 14)
  ctx.clock.advance(5_000)
  const amended = await detail(alice.token, reportId)
  assert.equal(amended.status, 'amended')
  assert.equal(amended.statusLabel, '已修订')
  assert.equal(amended.version, 2)
  assert.equal(amended.conclusion, '修订：右肺上叶小结节。')
  assert.equal(amended.history.length, 1)
  assert.equal(amended.history[0]!.version, 1)
  assert.equal(amended.history[0]!.findings, '双肺纹理清晰。')
  assert.equal(amended.history[0]!.performer, '王医生', 'organisations are not doctors')
  assert.ok(amended.history[0]!.conclusion!.startsWith('结论12'))

  // Marking several read at once; all of mine.
  const marked = await http.send('POST', '/main/reports/read', alice.token, {
    reportIds: aliceB,
  })
  assert.equal(marked.statusCode, 200, marked.body)
  assert.equal(marked.json().data.marked, 2)
  assert.equal((await list(alice.token)).unread, 11)
  const all = await http.send('POST', '/main/reports/read', alice.token, { all: true })
  assert.equal(all.json().data.marked, 14)
  assert.equal((await list(alice.token)).unread, 0)
  assert.equal((await list(alice.token, '?unreadOnly=true')).items.length, 0)
})

test('privacy: hidden from the list unless asked; opening needs the password or an SMS code', async () => {
  const reportId = aliceA[1]!
  const set = await http.send('POST', `/main/reports/${reportId}/privacy`, alice.token, {
    private: true,
  })
  assert.equal(set.statusCode, 200, set.body)
  assert.equal(set.json().data.private, true)

  const plain = await list(alice.token)
  assert.equal(plain.total, 13)
  assert.ok(!plain.items.some((item) => item.id === reportId))
  const asked = await list(alice.token, '?includePrivate=true')
  assert.equal(asked.total, 14)
  const shown = asked.items.find((item) => item.id === reportId)!
  assert.equal(shown.private, true)
  assert.equal(shown.summary, null, 'no content of a private report in the list')

  const locked = await detail(alice.token, reportId)
  assert.equal(locked.locked, true)
  assert.equal(locked.conclusion, null)
  assert.equal(locked.findings, null)
  assert.equal(locked.performer, null)

  const wrong = await http.send('POST', '/main/reports/unlock', alice.token, {
    password: 'Nope12345',
  })
  assert.equal(wrong.statusCode, 400)
  assert.equal(wrong.json().error, '登录密码错误')
  const empty = await http.send('POST', '/main/reports/unlock', alice.token, {})
  assert.equal(empty.statusCode, 400)

  const unlocked = await http.send('POST', '/main/reports/unlock', alice.token, {
    password: PASSWORD,
  })
  assert.equal(unlocked.statusCode, 200, unlocked.body)
  const { ticket, expiresInSeconds } = unlocked.json().data as {
    ticket: string
    expiresInSeconds: number
  }
  assert.equal(expiresInSeconds, REPORT_UNLOCK_TTL_SECONDS)
  const open = await detail(alice.token, reportId, ticket)
  assert.equal(open.locked, false)
  assert.ok(open.conclusion!.startsWith('结论11'))

  // Bound to the session: the same account on another device gets nothing from it.
  const otherSession = await createSession(ctx.app.db, alice.user.id, ctx.clock.now())
  assert.equal((await detail(otherSession.access_token, reportId, ticket)).locked, true)
  // Tampered, and expired.
  assert.equal((await detail(alice.token, reportId, `${ticket}0`)).locked, true)
  assert.equal((await detail(alice.token, reportId, 'garbage')).locked, true)
  ctx.clock.advance(REPORT_UNLOCK_TTL_SECONDS * 1000 + 1)
  assert.equal((await detail(alice.token, reportId, ticket)).locked, true)

  // An SMS code to the account's own phone works too.
  const sent = await http.send('POST', '/main/reports/unlock/code', alice.token, {})
  assert.equal(sent.statusCode, 200, sent.body)
  assert.match(sent.json().data.mobileMasked, /^\d{3}\*{4}\d{4}$/)
  const code = (await readOutbox(ctx.app.db, alice.mobile!, { purposes: ['report-unlock'] })).at(
    -1,
  )!.code
  const byCode = await http.send('POST', '/main/reports/unlock', alice.token, { code })
  assert.equal(byCode.statusCode, 200, byCode.body)
  const ticket2 = byCode.json().data.ticket as string
  assert.equal((await detail(alice.token, reportId, ticket2)).locked, false)
  const again = await http.send('POST', '/main/reports/unlock', alice.token, { code })
  assert.equal(again.statusCode, 400, 'a code is used once')

  // Making it public again needs the proof too.
  const noProof = await http.send('POST', `/main/reports/${reportId}/privacy`, alice.token, {
    private: false,
  })
  assert.equal(noProof.statusCode, 403)
  assert.equal(noProof.json().error, UNLOCK_REQUIRED)
  const lifted = await http.send('POST', `/main/reports/${reportId}/privacy`, alice.token, {
    private: false,
    ticket: ticket2,
  })
  assert.equal(lifted.statusCode, 200, lifted.body)
  assert.equal(lifted.json().data.private, false)
  assert.equal((await list(alice.token)).total, 14)
})

test('privacy needs a way to prove it: an account with neither password nor phone cannot set it', async () => {
  const wechatOnly = await signUp(ctx.app.db, ctx.clock.now(), {
    mobile: null,
    wechatOpenid: 'wx-open-id-1',
  })
  await ctx.app.db
    .insertInto('exam_claims')
    .values({
      user_id: wechatOnly.user.id,
      exam_id: await examOf(bobReport),
      via: 'query',
      created_at: '2030-05-01T00:00:00.000Z',
    })
    .execute()
  const res = await http.send('POST', `/main/reports/${bobReport}/privacy`, wechatOnly.token, {
    private: true,
  })
  assert.equal(res.statusCode, 400)
  assert.match(res.json().error, /请先设置登录密码或绑定手机号/)
  await ctx.app.db.deleteFrom('exam_claims').where('user_id', '=', wechatOnly.user.id).execute()
})

async function examOf(reportId: string): Promise<string> {
  const row = await ctx.app.db
    .selectFrom('reports')
    .select('exam_id')
    .where('id', '=', reportId)
    .executeTakeFirstOrThrow()
  return row.exam_id
}

test('delete from my list (hidden), restore; personal files (archive)', async () => {
  const reportId = aliceA[2]!
  const hidden = await http.send('DELETE', `/main/reports/${reportId}`, alice.token)
  assert.equal(hidden.statusCode, 200, hidden.body)
  const after = await list(alice.token, '?includePrivate=1')
  assert.ok(!after.items.some((item) => item.id === reportId))
  assert.equal(after.total, 13)
  // Still opens by id (it is theirs), and images stay.
  assert.equal((await detail(alice.token, reportId)).id, reportId)
  const images = await http.get('/image/exams?hospitalId=h-a&pageSize=50', alice.token)
  assert.ok(
    (images.json().data.items as { report: { id: string } | null }[]).some(
      (exam) => exam.report?.id === reportId,
    ),
  )
  const restored = await http.send('POST', `/main/reports/${reportId}/restore`, alice.token, {})
  assert.equal(restored.statusCode, 200)
  assert.equal((await list(alice.token)).total, 14)

  const archived = await http.send('POST', `/main/reports/${aliceB[0]}/archive`, alice.token, {})
  assert.equal(archived.statusCode, 200, archived.body)
  assert.deepEqual(archived.json().data, { archived: true })
  const files = await list(alice.token, '?archivedOnly=1')
  assert.deepEqual(
    files.items.map((item) => item.id),
    [aliceB[0]],
  )
  assert.equal(files.items[0]!.archived, true)
  assert.equal((await detail(alice.token, aliceB[0]!)).archived, true)
  const out = await http.send('POST', `/main/reports/${aliceB[0]}/archive`, alice.token, {
    archived: false,
  })
  assert.deepEqual(out.json().data, { archived: false })
  assert.equal((await list(alice.token, '?archivedOnly=1')).total, 0)
})

test('another patient never sees anything: lists empty of it, every call on it 404', async () => {
  const bobs = await list(bob.token, '?includePrivate=1')
  assert.deepEqual(
    bobs.items.map((item) => item.id),
    [bobReport],
  )
  const reportId = aliceA[0]!
  const examId = await examOf(reportId)
  const calls = [
    http.get(`/main/reports/${reportId}`, bob.token),
    http.get(`/main/exams/${examId}`, bob.token),
    http.send('POST', `/main/reports/${reportId}/privacy`, bob.token, { private: true }),
    http.send('POST', `/main/reports/${reportId}/archive`, bob.token, {}),
    http.send('DELETE', `/main/reports/${reportId}`, bob.token),
    http.send('POST', `/main/reports/${reportId}/restore`, bob.token, {}),
    http.send('POST', '/main/reports/read', bob.token, { reportIds: [reportId] }),
    http.get('/main/reports/no-such-report', bob.token),
  ]
  for (const res of await Promise.all(calls)) {
    assert.equal(res.statusCode, 404, res.body)
    assert.ok([REPORT_NOT_VISIBLE, '检查不存在或您无权查看'].includes(res.json().error))
  }
  // A stranger's 404 is the same as for an id that does not exist.
  assert.equal(
    (await http.get(`/main/reports/${reportId}`, bob.token)).body,
    (await http.get('/main/reports/no-such-report', bob.token)).body,
  )
  // Bob's marks touched nothing of alice's.
  const states = await ctx.app.db
    .selectFrom('exam_user_states')
    .select('user_id')
    .where('user_id', '=', bob.user.id)
    .execute()
  assert.deepEqual(states, [])

  // No bound card: nothing at all, until a claim (影像查询) adds one exam.
  const stranger = await signUp(ctx.app.db, ctx.clock.now(), { password: PASSWORD })
  assert.equal((await list(stranger.token, '?includePrivate=1')).total, 0)
  await ctx.app.db
    .insertInto('exam_claims')
    .values({
      user_id: stranger.user.id,
      exam_id: examId,
      via: 'query',
      created_at: ctx.clock.now().toISOString(),
    })
    .execute()
  const claimed = await list(stranger.token)
  assert.deepEqual(
    claimed.items.map((item) => item.id),
    [reportId],
  )
  assert.equal(claimed.items[0]!.read, false, "alice's read mark is alice's own")
})

test('unlock guesses share the account’s identity-proof limit: 5 wrong passwords, then 429', async () => {
  const carol = await patientWithCard(ctx, '孙八')
  for (let i = 0; i < 5; i += 1) {
    const wrong = await http.send('POST', '/main/reports/unlock', carol.token, {
      password: `Wrong${i}2345`,
    })
    assert.equal(wrong.statusCode, 400, wrong.body)
  }
  const blocked = await http.send('POST', '/main/reports/unlock', carol.token, {
    password: PASSWORD,
  })
  assert.equal(blocked.statusCode, 429)
  assert.match(blocked.json().error, /密码错误次数过多/)
  // A wrong SMS code says how many tries are left; no code sent at all says to get one first.
  const none = await http.send('POST', '/main/reports/unlock', carol.token, { code: '123456' })
  assert.equal(none.statusCode, 400)
  assert.equal(none.json().error, '请先获取验证码')
  await http.send('POST', '/main/reports/unlock/code', carol.token, {})
  const sent = (await readOutbox(ctx.app.db, carol.mobile!, { purposes: ['report-unlock'] })).at(
    -1,
  )!
  const guess = sent.code === '000000' ? '111111' : '000000'
  const wrongCode = await http.send('POST', '/main/reports/unlock', carol.token, { code: guess })
  assert.equal(wrongCode.statusCode, 400)
  assert.match(wrongCode.json().error, /验证码错误，还可尝试 \d 次/)
  // A code that is not six digits never reaches the check.
  const malformed = await http.send('POST', '/main/reports/unlock', carol.token, { code: '12ab56' })
  assert.equal(malformed.statusCode, 400)
  assert.match(malformed.json().error, /6 位数字验证码/)
})
