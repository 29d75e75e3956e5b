import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { EXPERT_PROFILE_MESSAGES } from '@contract/main/expert-profiles'
import { EXPERT_MESSAGES } from '@contract/main/experts'
import { ROLE_REQUIRED_MESSAGES } from '@contract/sso/auth'
import { assertExpertTakesConsultations } from '../../src/domain/experts'
import { ApiError } from '../../src/http/errors'
import type { SubscribeNotice } from '../../src/providers/subscribe-message'
import { signUp, type TestUser } from '../domain/profile/support'
import { TEST_DB_KIND } from '../helpers'
import { caller, directExpert, type ExpertWorld, expertWorld, pendingApplicant } from './support'

/*
 * The expert's own settings (bounds and Chinese messages), who may call what (403 before the input
 * is read), the platform's suspension under a burst of operators (exactly one wins, one audit line,
 * one message), the check the consultation issue calls, and the subscribe message of a
 * certification decision, sent only after the decision committed.
 */

let world: ExpertWorld
let call: ReturnType<typeof caller>
let operators: TestUser[]
let patient: TestUser
let expert: TestUser

const services = (text: object = {}, imaging: object = {}) => [
  { kind: 'text', enabled: true, priceFen: 5000, ...text },
  { kind: 'imaging', enabled: true, priceFen: 30000, ...imaging },
]

before(async () => {
  world = await expertWorld()
  call = caller(world)
  const now = world.ctx.clock.now()
  operators = await Promise.all(
    Array.from({ length: 3 }, () => signUp(world.ctx.app.db, now, { role: 'operator' })),
  )
  patient = await signUp(world.ctx.app.db, now)
  expert = await directExpert(world, { name: '孙医生' })
})

test(`expert-only and operator-only calls answer 403 before reading the input (${TEST_DB_KIND})`, async () => {
  const expertOnly: ['GET' | 'PUT', string, object | undefined][] = [
    ['GET', '/main/experts/me', undefined],
    // Inputs that would be 400 if read: the role is checked first.
    ['PUT', '/main/experts/me/profile', { specialities: 'x' }],
    ['PUT', '/main/experts/me/services', { dailyLimit: -1 }],
  ]
  for (const [method, url, payload] of expertOnly) {
    const res = await call(patient, method, url, payload)
    assert.deepEqual([res.status, res.error], [403, ROLE_REQUIRED_MESSAGES.expert], url)
    assert.equal((await call(null, method, url, payload)).status, 401, url)
  }
  const operatorOnly: ['GET' | 'POST', string, object | undefined][] = [
    ['GET', '/main/operator/experts?suspended=maybe', undefined],
    ['POST', `/main/operator/experts/${expert.user.id}/suspend`, { reason: '' }],
    ['POST', `/main/operator/experts/${expert.user.id}/resume`, { junk: 1 }],
  ]
  for (const [method, url, payload] of operatorOnly) {
    for (const who of [patient, expert]) {
      const res = await call(who, method, url, payload)
      assert.deepEqual([res.status, res.error], [403, ROLE_REQUIRED_MESSAGES.operator], url)
    }
    assert.equal((await call(null, method, url, payload)).status, 401, url)
  }
  // The expert role without an approved application: nothing to set, said in words.
  const roleOnly = await signUp(world.ctx.app.db, world.ctx.clock.now(), { role: 'expert' })
  const none = await call(roleOnly, 'GET', '/main/experts/me')
  assert.deepEqual([none.status, none.error], [403, EXPERT_PROFILE_MESSAGES.notCertified])
})

test(`服务设置: prices within the platform's bounds, each service once, Chinese messages (${TEST_DB_KIND})`, async () => {
  const mine = await call(expert, 'GET', '/main/experts/me')
  assert.equal(mine.status, 200, mine.error ?? '')
  assert.equal(mine.data.dailyLimit, 20)
  assert.equal(mine.data.suspension, null)
  assert.equal(mine.data.pendingChange, null)
  assert.equal(mine.data.profile.self, true)

  const put = (body: object) => call(expert, 'PUT', '/main/experts/me/services', body)
  const base = { accepting: true, dailyLimit: 10 }
  const refusals: [object, string][] = [
    [
      { ...base, services: services({ priceFen: 999 }) },
      EXPERT_PROFILE_MESSAGES.priceRange('text'),
    ],
    [
      { ...base, services: services({}, { priceFen: 300_001 }) },
      EXPERT_PROFILE_MESSAGES.priceRange('imaging'),
    ],
    [{ ...base, services: services({ priceFen: 3000.5 }) }, EXPERT_PROFILE_MESSAGES.priceInteger],
    [{ ...base, services: services({ priceFen: '3000' }) }, EXPERT_PROFILE_MESSAGES.priceInteger],
    [
      { ...base, services: [...services(), { kind: 'text', enabled: false, priceFen: 3000 }] },
      EXPERT_PROFILE_MESSAGES.servicesDuplicate,
    ],
    [{ ...base, services: services().slice(0, 1) }, EXPERT_PROFILE_MESSAGES.servicesMissing],
    [{ ...base, dailyLimit: 0, services: services() }, EXPERT_PROFILE_MESSAGES.dailyLimit],
    [{ ...base, dailyLimit: 101, services: services() }, EXPERT_PROFILE_MESSAGES.dailyLimit],
    [{ ...base, dailyLimit: 1.5, services: services() }, EXPERT_PROFILE_MESSAGES.dailyLimit],
    [{ ...base, services: [{ kind: 'video', enabled: true, priceFen: 1 }] }, '请选择服务类型'],
  ]
  for (const [body, message] of refusals) {
    const res = await put(body)
    assert.deepEqual([res.status, res.error], [400, message], JSON.stringify(body))
  }
  assert.equal(EXPERT_PROFILE_MESSAGES.priceRange('text'), '图文咨询价格应在 ¥10 至 ¥1000 之间')

  const saved = await put({ accepting: false, dailyLimit: 5, services: services() })
  assert.equal(saved.status, 200, saved.error ?? '')
  assert.equal(saved.data.dailyLimit, 5)
  assert.equal(saved.data.profile.accepting, false)
  // Turning a service off never fails on its price; the last valid price is kept.
  const off = await put({
    accepting: true,
    dailyLimit: 5,
    services: services({}, { enabled: false, priceFen: 1 }),
  })
  assert.equal(off.status, 200, off.error ?? '')
  const imaging = off.data.profile.services.find((s: { kind: string }) => s.kind === 'imaging')
  assert.deepEqual([imaging.enabled, imaging.priceFen, imaging.hours], [false, 30000, 72])
  // What patients see, at once.
  const seen = await call(patient, 'GET', `/main/experts/${expert.user.id}`)
  assert.deepEqual(
    seen.data.services.map((s: { kind: string; enabled: boolean; priceFen: number }) => [
      s.kind,
      s.enabled,
      s.priceFen,
    ]),
    [
      ['text', true, 5000],
      ['imaging', false, 30000],
    ],
  )
})

test(`我的主页: introduction and specialities change at once, checked as on the application (${TEST_DB_KIND})`, async () => {
  const put = (body: object) => call(expert, 'PUT', '/main/experts/me/profile', body)
  const unknown = await put({ introduction: '', specialities: ['会看病'] })
  assert.deepEqual([unknown.status, unknown.error], [400, EXPERT_MESSAGES.specialityUnknown])
  const long = await put({ introduction: '长'.repeat(501), specialities: ['肺结节'] })
  assert.deepEqual([long.status, long.error], [400, EXPERT_MESSAGES.introductionLong])
  const none = await put({ introduction: '简介', specialities: [] })
  assert.deepEqual([none.status, none.error], [400, EXPERT_MESSAGES.specialitiesRequired])
  const ok = await put({
    introduction: '  擅长肺部影像。 ',
    specialities: ['肺结节', '肺结节', 'PET-CT'],
  })
  assert.equal(ok.status, 200, ok.error ?? '')
  const seen = await call(null, 'GET', `/main/experts/${expert.user.id}`)
  assert.equal(seen.data.introduction, '擅长肺部影像。')
  assert.deepEqual(seen.data.specialities, ['肺结节', 'PET-CT'])
})

test(`suspension: of ten operators at once exactly one wins, with one audit line and one message (${TEST_DB_KIND})`, async () => {
  const target = await directExpert(world, { name: '周医生' })
  const url = `/main/operator/experts/${target.user.id}`
  const burst = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      call(operators[i % operators.length]!, 'POST', `${url}/suspend`, { reason: `原因${i}` }),
    ),
  )
  const wins = burst.filter((r) => r.status === 200)
  assert.equal(wins.length, 1, JSON.stringify(burst.map((r) => [r.status, r.error])))
  for (const loser of burst.filter((r) => r.status !== 200)) {
    assert.deepEqual([loser.status, loser.error], [409, EXPERT_PROFILE_MESSAGES.alreadySuspended])
  }
  const reason = wins[0]!.data.suspension.reason as string
  const db = world.ctx.app.db
  const audit = await db
    .selectFrom('operator_actions')
    .select(['action', 'detail'])
    .where('target_id', '=', target.user.id)
    .execute()
  assert.deepEqual(audit, [{ action: 'expert-suspend', detail: `暂停：${reason}` }])
  const messages = await db
    .selectFrom('messages')
    .select(['title', 'body'])
    .where('user_id', '=', target.user.id)
    .execute()
  assert.equal(messages.length, 1)
  assert.equal(messages[0]!.body, EXPERT_PROFILE_MESSAGES.suspended(reason))

  // From the next request: the expert sees why; nobody else sees the expert; no consultation.
  const mine = await call(target, 'GET', '/main/experts/me')
  assert.equal(mine.data.suspension.reason, reason)
  assert.equal((await call(patient, 'GET', `/main/experts/${target.user.id}`)).status, 404)
  await assert.rejects(assertExpertTakesConsultations(db, target.user.id), (error: ApiError) => {
    assert.deepEqual([error.statusCode, error.message], [404, EXPERT_PROFILE_MESSAGES.notFound])
    return true
  })
  const listed = await call(operators[0]!, 'GET', '/main/operator/experts?suspended=yes')
  assert.ok(listed.data.items.some((e: { id: string }) => e.id === target.user.id))

  const resumes = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      call(operators[i % operators.length]!, 'POST', `${url}/resume`),
    ),
  )
  assert.equal(resumes.filter((r) => r.status === 200).length, 1)
  for (const loser of resumes.filter((r) => r.status !== 200)) {
    assert.deepEqual([loser.status, loser.error], [409, EXPERT_PROFILE_MESSAGES.notSuspended])
  }
  assert.equal((await call(patient, 'GET', `/main/experts/${target.user.id}`)).status, 200)
  const missing = await call(
    operators[0]!,
    'POST',
    '/main/operator/experts/00000000-0000-0000-0000-000000000000/suspend',
    { reason: '核查' },
  )
  assert.deepEqual([missing.status, missing.error], [404, EXPERT_PROFILE_MESSAGES.notFound])
  const blank = await call(operators[0]!, 'POST', `${url}/suspend`, { reason: '  ' })
  assert.deepEqual(
    [blank.status, blank.error],
    [400, EXPERT_PROFILE_MESSAGES.suspendReasonRequired],
  )
})

test(`assertExpertTakesConsultations refuses the uncertified, the paused and a service turned off (${TEST_DB_KIND})`, async () => {
  const db = world.ctx.app.db
  const open = await directExpert(world, { name: '吴医生', imagingEnabled: false })
  const taken = await assertExpertTakesConsultations(db, open.user.id, 'text')
  assert.equal(taken.dailyLimit, 20)
  assert.equal(taken.services.find((s) => s.kind === 'text')!.priceFen, 3000)
  const refused = async (
    id: string,
    service: 'text' | 'imaging' | undefined,
    want: [number, string],
  ) =>
    assert.rejects(assertExpertTakesConsultations(db, id, service), (error: ApiError) => {
      assert.deepEqual([error.statusCode, error.message], want)
      return true
    })
  await refused(open.user.id, 'imaging', [409, EXPERT_PROFILE_MESSAGES.serviceOff('imaging')])
  await refused(patient.user.id, undefined, [404, EXPERT_PROFILE_MESSAGES.notFound])
  const paused = await directExpert(world, { name: '郑医生', accepting: false })
  await refused(paused.user.id, 'text', [409, EXPERT_PROFILE_MESSAGES.notAccepting])
})

test(`a certification decision sends its subscribe message only after it committed (${TEST_DB_KIND})`, async () => {
  const db = world.ctx.app.db
  const sent: { notice: SubscribeNotice; statusAtSend: string | undefined }[] = []
  const original = world.ctx.app.providers.subscribe
  world.ctx.app.providers.subscribe = {
    async send(notice) {
      // Read outside any transaction: only a committed decision is visible here.
      const row = await db
        .selectFrom('expert_applications')
        .select('status')
        .where('user_id', '=', notice.userId)
        .orderBy('created_at', 'desc')
        .executeTakeFirst()
      sent.push({ notice, statusAtSend: row?.status })
      return { sent: true }
    },
  }
  try {
    const one = await pendingApplicant(world, '冯医生')
    const two = await pendingApplicant(world, '陈医生')
    const approve = `/main/operator/expert-applications/${one.applicationId}/approve`
    const burst = await Promise.all([
      call(operators[0]!, 'POST', approve),
      call(operators[1]!, 'POST', approve),
    ])
    assert.deepEqual(burst.map((r) => r.status).sort(), [200, 409])
    const rejected = await call(
      operators[0]!,
      'POST',
      `/main/operator/expert-applications/${two.applicationId}/reject`,
      { reason: '照片不清晰' },
    )
    assert.equal(rejected.status, 200, rejected.error ?? '')
    assert.deepEqual(
      sent.map((s) => [s.notice.userId, s.notice.template, s.notice.data.result, s.statusAtSend]),
      [
        [one.user.user.id, 'expert-decision', '已通过', 'approved'],
        [two.user.user.id, 'expert-decision', '未通过', 'rejected'],
      ],
      'one notice per decision that counted, each after its commit; none for the 409',
    )
    assert.equal(sent[1]!.notice.data.remark, '照片不清晰')
    // The approved applicant is public now, under the bound card's name.
    const profile = await call(null, 'GET', `/main/experts/${one.user.user.id}`)
    assert.equal(profile.data.name, '冯医生')
  } finally {
    world.ctx.app.providers.subscribe = original
  }
})

test(`a suspension and a resumption each send one subscribe message, after the commit (${TEST_DB_KIND})`, async () => {
  const db = world.ctx.app.db
  const sent: { notice: SubscribeNotice; suspendedAtSend: string | null | undefined }[] = []
  const original = world.ctx.app.providers.subscribe
  world.ctx.app.providers.subscribe = {
    async send(notice) {
      const row = await db
        .selectFrom('experts')
        .select('suspended_at')
        .where('user_id', '=', notice.userId)
        .executeTakeFirst()
      sent.push({ notice, suspendedAtSend: row?.suspended_at })
      return { sent: true }
    },
  }
  try {
    const target = await directExpert(world, { name: '褚医生' })
    const url = `/main/operator/experts/${target.user.id}`
    const burst = await Promise.all(
      [0, 1].map((i) => call(operators[i]!, 'POST', `${url}/suspend`, { reason: '资质复核中' })),
    )
    assert.deepEqual(burst.map((r) => r.status).sort(), [200, 409])
    assert.equal((await call(operators[0]!, 'POST', `${url}/resume`)).status, 200)
    assert.deepEqual(
      sent.map((s) => [s.notice.template, s.notice.data.state, s.suspendedAtSend === null]),
      [
        ['expert-service', '已暂停', false],
        ['expert-service', '已恢复', true],
      ],
      'one notice per change that counted, each after its commit; none for the 409',
    )
    assert.equal(sent[0]!.notice.data.remark, '资质复核中')
  } finally {
    world.ctx.app.providers.subscribe = original
  }
})
