import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { EXAM_QR_PREFIX, EXAM_QR_TTL_SECONDS } from '@contract/main/claims'
import { bindIdCard } from '../../src/domain/profile/id-cards'
import { examOfFilmCode, filmCodeOf } from '../../src/domain/claims/codes'
import { FILM_CODE_INVALID } from '../../src/domain/claims/claims'
import { validIdNumber } from '../domain/profile/support'
import {
  claimCodeFor,
  claimWorld,
  type ClaimWorld,
  errorOf,
  get,
  patient,
  post,
  pushExam,
  visibleExamIds,
} from '../records/claim-support'

async function filmCode(world: ClaimWorld, body: object, key = world.hospitalKey) {
  return post(world, '/scan/film-codes', body, { key })
}

function alter(code: string): string {
  const last = code.at(-1) === 'A' ? 'B' : 'A'
  return code.slice(0, -1) + last
}

test('a hospital gets the printable code of its own exam, by StudyInstanceUID or 检查号', async () => {
  const world = await claimWorld()
  const exam = await pushExam(world)
  const byUid = await filmCode(world, { studyInstanceUid: exam.studyUid })
  assert.equal(byUid.statusCode, 200, byUid.body)
  const issued = byUid.json().data
  assert.equal(issued.studyInstanceUid, exam.studyUid)
  assert.equal(issued.accessionNumber, exam.accessionNumber)
  assert.equal(examOfFilmCode(issued.code), exam.id)
  assert.equal(
    issued.url,
    `http://localhost:80/pages/personalReport/detail2?code=${encodeURIComponent(issued.code)}`,
  )
  const byNumber = await filmCode(world, { accessionNumber: exam.accessionNumber })
  assert.equal(byNumber.json().data.code, issued.code, 'the code of an exam is stable')

  // Another hospital's key: not its exam. No key: 401. Nothing named: 400.
  const other = await filmCode(world, { studyInstanceUid: exam.studyUid }, world.other.key)
  assert.equal(other.statusCode, 404)
  const anonymous = await post(world, '/scan/film-codes', { studyInstanceUid: exam.studyUid })
  assert.equal(anonymous.statusCode, 401)
  const nothing = await filmCode(world, {})
  assert.equal(nothing.statusCode, 400)
  // A patient's token is not a hospital key.
  const me = await patient(world)
  const asPatient = await post(
    world,
    '/scan/film-codes',
    { studyInstanceUid: exam.studyUid },
    { token: me.token },
  )
  assert.equal(asPatient.statusCode, 401)
})

test('codes cannot be made up or altered', () => {
  const id = randomUUID()
  const code = filmCodeOf(id)
  assert.equal(examOfFilmCode(code), id)
  assert.equal(examOfFilmCode(alter(code)), null)
  const [payload, mac] = code.split('.')
  const otherPayload = Buffer.from(randomUUID()).toString('base64url')
  assert.equal(examOfFilmCode(`${otherPayload}.${mac}`), null)
  assert.equal(examOfFilmCode(`${payload}`), null)
  assert.equal(examOfFilmCode(''), null)
})

test('scanning a film-bag code shows who issued it, then the same SMS proof claims it', async () => {
  const world = await claimWorld()
  const exam = await pushExam(world, {
    name: '王小明',
    phone: '13722223333',
    report: { status: 'final' },
  })
  const url = (await filmCode(world, { studyInstanceUid: exam.studyUid })).json().data.url
  const me = await patient(world)

  const scanned = await post(world, '/scan/qr-code', { content: url }, { token: me.token })
  assert.equal(scanned.statusCode, 200, scanned.body)
  const result = scanned.json().data
  assert.deepEqual(result.exam, {
    hospital: world.hospital,
    studyDate: '2030-05-20',
    modalities: ['CT'],
    title: '胸部 CT 平扫',
    patientNameMasked: '王**',
    hasReport: true,
    reportStatusLabel: '正式报告',
  })
  assert.equal(result.mine, false)
  assert.equal(result.reportId, null, 'no report before the proof')
  assert.equal(result.mobileMasked, '137****3333')
  // Nothing of the report's content before the proof.
  assert.ok(!scanned.body.includes('未见明显异常'))

  const code = new URL(url).searchParams.get('code')!
  const info = await get(world, `/scan/report?code=${encodeURIComponent(code)}`, {
    token: me.token,
  })
  assert.equal(info.statusCode, 200)
  assert.equal(info.json().data.mine, false)
  const count = await get(world, `/scan/report/count?code=${encodeURIComponent(code)}`, {
    token: me.token,
  })
  assert.deepEqual(count.json().data, { total: 1, final: 1 })

  await post(world, '/main/claims/code', { ticket: result.ticket }, { token: me.token })
  const sms = await claimCodeFor(world, '13722223333')
  const claimed = await post(
    world,
    '/main/claims/confirm',
    { ticket: result.ticket, code: sms },
    { token: me.token },
  )
  assert.equal(claimed.statusCode, 200, claimed.body)
  assert.equal(claimed.json().data.via, 'scan')
  assert.ok(claimed.json().data.reportId)
  assert.deepEqual(await visibleExamIds(world, me.user.id), [exam.id])

  const after = await get(world, `/scan/report?code=${encodeURIComponent(code)}`, {
    token: me.token,
  })
  assert.equal(after.json().data.mine, true)
  assert.equal(after.json().data.examId, exam.id)
  assert.equal(after.json().data.reportId, claimed.json().data.reportId)
  assert.equal(after.json().data.ticket, null)
})

test('a bare code scans too; altered and foreign codes answer one clear message', async () => {
  const world = await claimWorld()
  const exam = await pushExam(world)
  const { code } = (await filmCode(world, { studyInstanceUid: exam.studyUid })).json().data
  const me = await patient(world)
  const bare = await post(world, '/scan/qr-code', { content: code }, { token: me.token })
  assert.equal(bare.statusCode, 200)
  for (const content of [
    alter(code),
    'https://example.com/pages/other?code=abc',
    'yingxiang-login:abcdef',
    '随便一段文字',
  ]) {
    const res = await post(world, '/scan/qr-code', { content }, { token: me.token })
    assert.equal(res.statusCode, 400, content)
    assert.equal(errorOf(res), FILM_CODE_INVALID)
  }
  const info = await get(world, `/scan/report?code=${encodeURIComponent(alter(code))}`, {
    token: me.token,
  })
  assert.equal(info.statusCode, 400)
  const anonymous = await post(world, '/scan/qr-code', { content: code })
  assert.equal(anonymous.statusCode, 401)
})

test('the owner by bound ID card sees it as theirs at once; no phone means no ticket', async () => {
  const world = await claimWorld()
  const idNumber = validIdNumber('19880101', 321)
  const exam = await pushExam(world, { name: '赵六', idNumber, phone: null })
  const owner = await patient(world)
  await bindIdCard(
    world.app.db,
    world.app.personalCipher,
    owner.user.id,
    { realName: '赵六', idCard: idNumber },
    world.clock.now(),
  )
  const { code } = (await filmCode(world, { studyInstanceUid: exam.studyUid })).json().data
  const mine = await post(world, '/scan/qr-code', { content: code }, { token: owner.token })
  assert.equal(mine.json().data.mine, true)
  assert.equal(mine.json().data.examId, exam.id)
  const stranger = await patient(world)
  const theirs = await post(world, '/scan/qr-code', { content: code }, { token: stranger.token })
  assert.equal(theirs.json().data.mine, false)
  assert.equal(theirs.json().data.ticket, null)
  assert.equal(theirs.json().data.mobileMasked, null)
})

test('room list: the departments of a hospital, by id or by a film-bag code', async () => {
  const world = await claimWorld()
  await world.app.db
    .insertInto('departments')
    .values([
      {
        id: `${world.hospital.id}-d2`,
        hospital_id: world.hospital.id,
        name: '放射科',
        sort_order: 2,
      },
      {
        id: `${world.hospital.id}-d1`,
        hospital_id: world.hospital.id,
        name: '超声科',
        sort_order: 1,
      },
    ])
    .execute()
  const exam = await pushExam(world)
  const { code } = (await filmCode(world, { studyInstanceUid: exam.studyUid })).json().data
  const byCode = await get(world, `/scan/rooms?code=${encodeURIComponent(code)}`)
  assert.equal(byCode.statusCode, 200, byCode.body)
  assert.deepEqual(
    byCode.json().data.map((room: { name: string }) => room.name),
    ['超声科', '放射科'],
  )
  const byId = await get(world, `/scan/rooms?hospitalId=${world.hospital.id}`)
  assert.deepEqual(byId.json().data, byCode.json().data)
  assert.equal((await get(world, '/scan/rooms')).statusCode, 400)
  assert.equal((await get(world, '/scan/rooms?hospitalId=nope')).statusCode, 404)
})

test("the owner's exam QR code lasts 5 minutes and tells a hospital terminal only what it may know", async () => {
  const world = await claimWorld()
  const exam = await pushExam(world)
  const owner = await patient(world)
  await world.app.db
    .insertInto('exam_claims')
    .values({
      user_id: owner.user.id,
      exam_id: exam.id,
      via: 'query',
      created_at: world.clock.now().toISOString(),
    })
    .execute()
  const issued = await post(world, `/main/exams/${exam.id}/qr-code`, {}, { token: owner.token })
  assert.equal(issued.statusCode, 200, issued.body)
  const qr = issued.json().data
  assert.ok(qr.content.startsWith(EXAM_QR_PREFIX))
  assert.equal(qr.ttlSeconds, EXAM_QR_TTL_SECONDS)
  assert.equal(Date.parse(qr.expiresAt) - world.clock.now().getTime(), EXAM_QR_TTL_SECONDS * 1000)
  assert.ok(!qr.content.includes(exam.id), 'the code is sealed')
  const again = await post(world, `/main/exams/${exam.id}/qr-code`, {}, { token: owner.token })
  assert.notEqual(again.json().data.content, qr.content, 'each refresh is a new code')

  const own = await post(
    world,
    '/scan/exam-codes/resolve',
    { content: qr.content },
    { key: world.hospitalKey },
  )
  assert.equal(own.statusCode, 200, own.body)
  assert.equal(own.json().data.ownExam, true)
  assert.equal(own.json().data.studyInstanceUid, exam.studyUid)
  const other = await post(
    world,
    '/scan/exam-codes/resolve',
    { content: qr.content },
    { key: world.other.key },
  )
  assert.equal(other.json().data.ownExam, false)
  assert.equal(other.json().data.studyInstanceUid, null)
  assert.equal(other.json().data.accessionNumber, null)
  const tampered = await post(
    world,
    '/scan/exam-codes/resolve',
    { content: qr.content.slice(0, -3) + 'abc' },
    { key: world.hospitalKey },
  )
  assert.equal(tampered.statusCode, 400)
  assert.equal(errorOf(tampered), '二维码无效')
  const noKey = await post(world, '/scan/exam-codes/resolve', { content: qr.content })
  assert.equal(noKey.statusCode, 401)

  world.clock.advance(EXAM_QR_TTL_SECONDS * 1000)
  const late = await post(
    world,
    '/scan/exam-codes/resolve',
    { content: qr.content },
    { key: world.hospitalKey },
  )
  assert.equal(late.statusCode, 400)
  assert.equal(errorOf(late), '二维码已过期，请患者刷新后重新出示')

  // Someone who cannot see the exam gets no code for it (404, as for an id that does not exist).
  const stranger = await patient(world)
  const refused = await post(world, `/main/exams/${exam.id}/qr-code`, {}, { token: stranger.token })
  assert.equal(refused.statusCode, 404)
  assert.equal(errorOf(refused), '检查不存在或您无权查看')
})
