import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CLAIM_NOT_FOUND } from '@contract/main/claims'
import { FLOW_ONLY, SMS_LIMITS } from '../../src/domain/identity/sms'
import { CLAIM_LIMITS } from '../../src/domain/claims/claims'
import {
  claimCodeFor,
  claimWorld,
  errorOf,
  freshIp,
  patient,
  post,
  pushExam,
  visibleExamIds,
} from './claim-support'

const LOOKUP = '/main/claims/lookup'
const SEND = '/main/claims/code'
const CONFIRM = '/main/claims/confirm'

test('影像查询: hospital + exam number + name → masked phone → SMS code → the exam is mine', async () => {
  const world = await claimWorld()
  const exam = await pushExam(world, { phone: '13712345678' })
  const me = await patient(world)
  assert.deepEqual(await visibleExamIds(world, me.user.id), [])

  const found = await post(
    world,
    LOOKUP,
    { hospitalId: world.hospital.id, examNumber: exam.accessionNumber, name: '张三' },
    { token: me.token },
  )
  assert.equal(found.statusCode, 200, found.body)
  const start = found.json().data
  assert.equal(start.mobileMasked, '137****5678')
  assert.equal(start.alreadyMine, false)
  assert.equal(start.examId, null)
  // The answer names neither the exam nor the phone in clear.
  assert.ok(!found.body.includes(exam.id))
  assert.ok(!found.body.includes('13712345678'))

  const sent = await post(world, SEND, { ticket: start.ticket }, { token: me.token })
  assert.equal(sent.statusCode, 200, sent.body)
  assert.equal(sent.json().data.mobileMasked, '137****5678')
  assert.equal(sent.json().data.expiresInSeconds, SMS_LIMITS.ttlMs / 1000)
  const code = await claimCodeFor(world, '13712345678')

  const claimed = await post(world, CONFIRM, { ticket: start.ticket, code }, { token: me.token })
  assert.equal(claimed.statusCode, 200, claimed.body)
  assert.deepEqual(claimed.json().data, {
    examId: exam.id,
    hospital: world.hospital,
    reportId: null,
    via: 'query',
  })
  assert.deepEqual(await visibleExamIds(world, me.user.id), [exam.id])
  const row = await world.app.db
    .selectFrom('exam_claims')
    .selectAll()
    .where('user_id', '=', me.user.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.via, 'query')

  // Asking again: already mine, no code needed.
  const again = await post(
    world,
    LOOKUP,
    { hospitalId: world.hospital.id, examNumber: exam.accessionNumber, name: '张三' },
    { token: me.token },
  )
  assert.equal(again.json().data.alreadyMine, true)
  assert.equal(again.json().data.examId, exam.id)
})

test('names are matched as hospitals write them (PN carets, spaces, full-width)', async () => {
  const world = await claimWorld()
  const exam = await pushExam(world, { name: 'Zhang^San' })
  const me = await patient(world)
  for (const name of ['zhang san', 'ＺＨＡＮＧ　ＳＡＮ', 'ZhangSan']) {
    const res = await post(
      world,
      LOOKUP,
      { hospitalId: world.hospital.id, examNumber: exam.accessionNumber, name },
      { token: me.token },
    )
    assert.equal(res.statusCode, 200, `${name}: ${res.body}`)
  }
})

test('a lookup that does not match says the same thing whatever did not match', async () => {
  const world = await claimWorld()
  const exam = await pushExam(world)
  const noPhone = await pushExam(world, { phone: null })
  const me = await patient(world)
  const cases = [
    { hospitalId: world.hospital.id, examNumber: exam.accessionNumber, name: '李四' },
    { hospitalId: world.hospital.id, examNumber: 'CT000000000', name: '张三' },
    { hospitalId: world.other.id, examNumber: exam.accessionNumber, name: '张三' },
    { hospitalId: 'no-such-hospital', examNumber: exam.accessionNumber, name: '张三' },
    // The exam exists and the name is right, but there is no phone to prove: same answer.
    { hospitalId: world.hospital.id, examNumber: noPhone.accessionNumber, name: '张三' },
  ]
  const bodies = new Set<string>()
  for (const input of cases) {
    const res = await post(world, LOOKUP, input, { token: me.token })
    assert.equal(res.statusCode, 404, JSON.stringify(input))
    assert.equal(errorOf(res), CLAIM_NOT_FOUND)
    bodies.add(res.body)
  }
  assert.equal(bodies.size, 1, 'every miss answers byte for byte the same')
})

test('bad input answers 400 in Chinese, and a lookup needs a login', async () => {
  const world = await claimWorld()
  const me = await patient(world)
  const empty = await post(
    world,
    LOOKUP,
    { hospitalId: world.hospital.id, examNumber: '  ', name: '张三' },
    { token: me.token },
  )
  assert.equal(empty.statusCode, 400)
  assert.equal(errorOf(empty), '请输入检查号')
  const weird = await post(
    world,
    LOOKUP,
    { hospitalId: world.hospital.id, examNumber: "1' or 1=1", name: '张三' },
    { token: me.token },
  )
  assert.equal(weird.statusCode, 400)
  const anonymous = await post(world, LOOKUP, {
    hospitalId: world.hospital.id,
    examNumber: 'CT1',
    name: '张三',
  })
  assert.equal(anonymous.statusCode, 401)
  const badCode = await post(world, CONFIRM, { ticket: 'x', code: '12' }, { token: me.token })
  assert.equal(badCode.statusCode, 400)
  assert.equal(errorOf(badCode), '请输入 6 位数字验证码')
})

test('a wrong code does not claim, and the tries per code are limited', async () => {
  const world = await claimWorld()
  const exam = await pushExam(world)
  const me = await patient(world)
  const start = (
    await post(
      world,
      LOOKUP,
      { hospitalId: world.hospital.id, examNumber: exam.accessionNumber, name: '张三' },
      { token: me.token },
    )
  ).json().data
  await post(world, SEND, { ticket: start.ticket }, { token: me.token })
  const code = await claimCodeFor(world, exam.phone!)
  const wrong = code === '000000' ? '111111' : '000000'
  const messages: string[] = []
  for (let i = 0; i < SMS_LIMITS.maxAttempts + 1; i += 1) {
    const res = await post(
      world,
      CONFIRM,
      { ticket: start.ticket, code: wrong },
      { token: me.token },
    )
    assert.equal(res.statusCode, 400)
    messages.push(errorOf(res))
  }
  assert.equal(messages[0], '验证码错误，还可尝试 4 次')
  assert.equal(messages.at(-1), '验证码错误次数过多，请重新获取')
  // Even the right code is refused now: the code's tries are used up.
  const late = await post(world, CONFIRM, { ticket: start.ticket, code }, { token: me.token })
  assert.equal(late.statusCode, 400)
  assert.deepEqual(await visibleExamIds(world, me.user.id), [])
})

test('another person who knows the slip cannot claim without the phone', async () => {
  const world = await claimWorld()
  const exam = await pushExam(world, { phone: '13711112222' })
  const owner = await patient(world)
  const stranger = await patient(world)
  const lookup = (token: string, ip: string) =>
    post(
      world,
      LOOKUP,
      { hospitalId: world.hospital.id, examNumber: exam.accessionNumber, name: '张三' },
      { token, ip },
    )
  // The stranger learns what the flow shows (the masked phone) and can make the owner's phone ring...
  const theirs = (await lookup(stranger.token, '198.51.100.7')).json().data
  const sent = await post(
    world,
    SEND,
    { ticket: theirs.ticket },
    { token: stranger.token, ip: '198.51.100.7' },
  )
  assert.equal(sent.statusCode, 200)
  // ...but the code goes to the owner's phone, and guesses are capped.
  let refused = 0
  for (let i = 0; i < 8; i += 1) {
    const guess = String(100000 + i)
    const res = await post(
      world,
      CONFIRM,
      { ticket: theirs.ticket, code: guess },
      { token: stranger.token, ip: '198.51.100.7' },
    )
    if (res.statusCode !== 200) refused += 1
  }
  assert.equal(refused, 8)
  assert.deepEqual(await visibleExamIds(world, stranger.user.id), [])

  // The owner's ticket and code are useless to the stranger: the ticket is bound to its account.
  const mine = (await lookup(owner.token, '203.0.113.50')).json().data
  world.clock.advance(SMS_LIMITS.cooldownMs)
  await post(world, SEND, { ticket: mine.ticket }, { token: owner.token, ip: '203.0.113.50' })
  const code = await claimCodeFor(world, '13711112222')
  const stolen = await post(
    world,
    CONFIRM,
    { ticket: mine.ticket, code },
    { token: stranger.token, ip: '203.0.113.50' },
  )
  assert.equal(stolen.statusCode, 400)
  assert.equal(errorOf(stolen), '请重新查询')
  assert.deepEqual(await visibleExamIds(world, stranger.user.id), [])
  // The owner, with the code from the phone, claims it.
  const ok = await post(
    world,
    CONFIRM,
    { ticket: mine.ticket, code },
    { token: owner.token, ip: '203.0.113.50' },
  )
  assert.equal(ok.statusCode, 200, ok.body)
  assert.deepEqual(await visibleExamIds(world, owner.user.id), [exam.id])
  assert.deepEqual(await visibleExamIds(world, stranger.user.id), [])
})

test('a forged or expired ticket starts over', async () => {
  const world = await claimWorld()
  const exam = await pushExam(world)
  const me = await patient(world)
  const start = (
    await post(
      world,
      LOOKUP,
      { hospitalId: world.hospital.id, examNumber: exam.accessionNumber, name: '张三' },
      { token: me.token },
    )
  ).json().data
  const forged = start.ticket.slice(0, -4) + (start.ticket.endsWith('AAAA') ? 'BBBB' : 'AAAA')
  const res = await post(world, SEND, { ticket: forged }, { token: me.token })
  assert.equal(res.statusCode, 400)
  assert.equal(errorOf(res), '请重新查询')
  world.clock.advance(CLAIM_LIMITS.ticketTtlMs + 1)
  const late = await post(world, SEND, { ticket: start.ticket }, { token: me.token })
  assert.equal(late.statusCode, 400)
  assert.equal(errorOf(late), '查询已过期，请重新查询')
})

test('the claim purpose cannot be sent to a number the caller types', async () => {
  const world = await claimWorld()
  const res = await post(world, '/sso/sms/send', { mobile: '13700000001', purpose: 'claim' })
  assert.equal(res.statusCode, 400)
  assert.equal(errorOf(res), FLOW_ONLY)
})

test('failed lookups are limited per account; a match does not count', async () => {
  const world = await claimWorld()
  const exam = await pushExam(world)
  const me = await patient(world)
  const miss = (ip: string) =>
    post(
      world,
      LOOKUP,
      { hospitalId: world.hospital.id, examNumber: `NO${ip.replace(/\D/g, '')}`, name: '张三' },
      { token: me.token, ip },
    )
  for (let i = 0; i < CLAIM_LIMITS.failedPerUserPerHour - 1; i += 1) {
    assert.equal((await miss(freshIp())).statusCode, 404)
  }
  // Matches in between give their slot back.
  for (let i = 0; i < 3; i += 1) {
    const hit = await post(
      world,
      LOOKUP,
      { hospitalId: world.hospital.id, examNumber: exam.accessionNumber, name: '张三' },
      { token: me.token, ip: freshIp() },
    )
    assert.equal(hit.statusCode, 200)
  }
  assert.equal((await miss(freshIp())).statusCode, 404)
  const over = await miss(freshIp())
  assert.equal(over.statusCode, 429)
  assert.match(errorOf(over), /^查询次数过多，请 .+后再试/)
  // A right lookup is refused too while the account is over its limit (reserve first).
  const blocked = await post(
    world,
    LOOKUP,
    { hospitalId: world.hospital.id, examNumber: exam.accessionNumber, name: '张三' },
    { token: me.token },
  )
  assert.equal(blocked.statusCode, 429)
})

test('guessing names for one exam number stops at 20 a day, whoever guesses', async () => {
  const world = await claimWorld()
  const exam = await pushExam(world, { name: '欧阳娜娜' })
  const names = ['张三', '李四', '王五', '赵六', '钱七', '孙八', '周九']
  let tries = 0
  while (tries < CLAIM_LIMITS.failedPerExamNumberPerDay) {
    const guesser = await patient(world)
    for (let i = 0; i < 5 && tries < CLAIM_LIMITS.failedPerExamNumberPerDay; i += 1) {
      const res = await post(
        world,
        LOOKUP,
        { hospitalId: world.hospital.id, examNumber: exam.accessionNumber, name: names[i]! },
        { token: guesser.token, ip: freshIp() },
      )
      assert.equal(res.statusCode, 404)
      tries += 1
    }
  }
  const fresh = await patient(world)
  const right = await post(
    world,
    LOOKUP,
    { hospitalId: world.hospital.id, examNumber: exam.accessionNumber, name: '欧阳娜娜' },
    { token: fresh.token, ip: freshIp() },
  )
  assert.equal(right.statusCode, 429, 'even the right name waits: the number is not a name oracle')
})

test('30 parallel failed lookups by one account: exactly the hourly 10 are compared', async () => {
  const world = await claimWorld()
  await pushExam(world)
  const me = await patient(world)
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      post(
        world,
        LOOKUP,
        { hospitalId: world.hospital.id, examNumber: `MISS${i}`, name: '张三' },
        { token: me.token, ip: freshIp() },
      ),
    ),
  )
  const codes = answers.map((res) => res.statusCode)
  assert.equal(codes.filter((code) => code === 404).length, CLAIM_LIMITS.failedPerUserPerHour)
  assert.equal(codes.filter((code) => code === 429).length, 30 - CLAIM_LIMITS.failedPerUserPerHour)
})

test('a claimed exam removed from my list comes back when I claim it again', async () => {
  const world = await claimWorld()
  const exam = await pushExam(world)
  const me = await patient(world)
  const at = world.clock.now().toISOString()
  await world.app.db
    .insertInto('exam_user_states')
    .values({
      user_id: me.user.id,
      exam_id: exam.id,
      report_private: 0,
      report_read_at: null,
      archived_at: null,
      hidden_at: at,
      updated_at: at,
    })
    .execute()
  const start = (
    await post(
      world,
      LOOKUP,
      { hospitalId: world.hospital.id, examNumber: exam.accessionNumber, name: '张三' },
      { token: me.token },
    )
  ).json().data
  await post(world, SEND, { ticket: start.ticket }, { token: me.token })
  const code = await claimCodeFor(world, exam.phone!)
  const res = await post(world, CONFIRM, { ticket: start.ticket, code }, { token: me.token })
  assert.equal(res.statusCode, 200)
  const state = await world.app.db
    .selectFrom('exam_user_states')
    .select('hidden_at')
    .where('user_id', '=', me.user.id)
    .executeTakeFirstOrThrow()
  assert.equal(state.hidden_at, null)
})
