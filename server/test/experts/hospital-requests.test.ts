import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import {
  HOSPITAL_REQUEST_MESSAGES,
  HOSPITAL_REQUESTS_PENDING_MAX,
} from '@contract/main/hospital-requests'
import { NOT_OPERATOR } from '../../src/http/auth'
import { signUp, type TestUser } from '../domain/profile/support'
import { TEST_DB_KIND } from '../helpers'
import { caller, type ExpertWorld, expertWorld, fullDraft, uploadPhoto, withCard } from './support'

/*
 * "My hospital is not listed": an applicant asks for their hospital, submits with the request in its
 * place, the operator cannot approve until the request is settled; resolving fills the hospital into
 * the waiting application (and tells the applicant), declining says why. Limits hold under a burst,
 * and of two operators settling at once exactly one counts.
 */

let world: ExpertWorld
let call: ReturnType<typeof caller>
let operators: TestUser[]

before(async () => {
  world = await expertWorld()
  call = caller(world)
  const now = world.ctx.clock.now()
  operators = [
    await signUp(world.ctx.app.db, now, { role: 'operator' }),
    await signUp(world.ctx.app.db, now, { role: 'operator' }),
  ]
})

const REQUEST = { name: '测试县中医院', province: '测试省', city: '测试县' }

async function addHospital(id: string, name: string) {
  await world.ctx.app.db
    .insertInto('hospitals')
    .values({
      id,
      name,
      level: '二级甲等',
      province: '测试省',
      city: '测试县',
      address: '县城路 2 号',
      sort_order: 0,
      created_at: world.ctx.clock.now().toISOString(),
      region_code: null,
      region_name: null,
      ai_reporting: 0,
      demo: 0,
    })
    .execute()
}

async function submitWithRequest(user: TestUser, requestId: string) {
  const { hospitalId: _listed, ...rest } = fullDraft(world)
  const saved = await call(user, 'POST', '/main/experts/application', {
    ...rest,
    hospitalRequestId: requestId,
  })
  assert.equal(saved.status, 200, saved.error ?? '')
  assert.equal(saved.data.hospitalId, null)
  assert.equal(saved.data.hospitalRequest.status, 'pending')
  for (const kind of ['practice-info', 'practice-registration']) {
    assert.equal((await uploadPhoto(world, user, kind)).status, 200)
  }
  return call(user, 'POST', '/main/experts/application/submit', {
    agreementVersion: world.agreementVersion,
  })
}

test(`an application waits for its hospital request; resolving fills the hospital in and approval follows (${TEST_DB_KIND})`, async () => {
  const user = await withCard(world, '王医生')
  const asked = await call(user, 'POST', '/main/experts/hospital-requests', REQUEST)
  assert.equal(asked.status, 200, asked.error ?? '')
  assert.equal(asked.data.statusLabel, '待添加')
  // Asking again for the same name answers the same request.
  const again = await call(user, 'POST', '/main/experts/hospital-requests', REQUEST)
  assert.equal(again.data.id, asked.data.id)

  const submitted = await submitWithRequest(user, asked.data.id)
  assert.equal(submitted.status, 200, submitted.error ?? '')
  assert.equal(submitted.data.status, 'pending')

  const queue = await call(operators[0]!, 'GET', '/main/operator/hospital-requests')
  const row = queue.data.items.find((item: { id: string }) => item.id === asked.data.id)
  assert.equal(row.waitingApplications, 1)
  assert.match(row.mobileMasked, /^\d{3}\*{4}\d{4}$/)

  const early = await call(
    operators[0]!,
    'POST',
    `/main/operator/expert-applications/${submitted.data.id}/approve`,
  )
  assert.equal(early.status, 409)
  assert.equal(early.error, HOSPITAL_REQUEST_MESSAGES.approveWaits)

  const hospitalId = `hos-requested-${process.pid}`
  await addHospital(hospitalId, '测试县中医医院')
  // Two operators settle at once: one resolves, the other is told it was already settled.
  const [a, b] = await Promise.all([
    call(operators[0]!, 'POST', `/main/operator/hospital-requests/${asked.data.id}/resolve`, {
      hospitalId,
    }),
    call(operators[1]!, 'POST', `/main/operator/hospital-requests/${asked.data.id}/decline`, {
      reason: '重复申请',
    }),
  ])
  const statuses = [a.status, b.status].sort()
  assert.deepEqual(statuses, [200, 409])
  const winner = a.status === 200 ? a : b
  const actions = await world.ctx.app.db
    .selectFrom('operator_actions')
    .select('action')
    .where('target_id', '=', asked.data.id)
    .execute()
  assert.equal(actions.length, 1, 'one audit line for one settlement')

  const mine = await call(user, 'GET', '/main/experts/application')
  if (winner.data.status === 'added') {
    assert.equal(mine.data.hospitalId, hospitalId)
    assert.equal(mine.data.hospitalName, '测试县中医医院')
    assert.equal(mine.data.hospitalRequest.hospitalName, '测试县中医医院')
    const approved = await call(
      operators[0]!,
      'POST',
      `/main/operator/expert-applications/${submitted.data.id}/approve`,
    )
    assert.equal(approved.status, 200, approved.error ?? '')
    const expert = await world.ctx.app.db
      .selectFrom('experts')
      .select('hospital_id')
      .where('user_id', '=', user.user.id)
      .executeTakeFirstOrThrow()
    assert.equal(expert.hospital_id, hospitalId)
  } else {
    assert.equal(mine.data.hospitalId, null)
    assert.equal(mine.data.hospitalRequest.declineReason, '重复申请')
  }
  const messages = await world.ctx.app.db
    .selectFrom('messages')
    .select('title')
    .where('user_id', '=', user.user.id)
    .execute()
  assert.ok(
    messages.some((m) => m.title === '医院已添加' || m.title === '医院申请未通过'),
    'the applicant is told how the request was settled',
  )
})

test(`a declined request cannot be submitted; the applicant is told to choose again (${TEST_DB_KIND})`, async () => {
  const user = await withCard(world)
  const asked = await call(user, 'POST', '/main/experts/hospital-requests', {
    ...REQUEST,
    name: '不存在的医院',
  })
  const declined = await call(
    operators[0]!,
    'POST',
    `/main/operator/hospital-requests/${asked.data.id}/decline`,
    { reason: '查无此医院，请核对全称' },
  )
  assert.equal(declined.status, 200, declined.error ?? '')
  assert.equal(declined.data.statusLabel, '未添加')
  const { hospitalId: _listed, ...rest } = fullDraft(world)
  const saved = await call(user, 'POST', '/main/experts/application', {
    ...rest,
    hospitalRequestId: asked.data.id,
  })
  assert.equal(saved.status, 400)
  assert.equal(saved.error, HOSPITAL_REQUEST_MESSAGES.declined)
  const mine = await call(user, 'GET', '/main/experts/hospital-requests')
  assert.equal(mine.data[0].declineReason, '查无此医院，请核对全称')
})

test(`requests: someone else's is unknown, a listed name is pointed at, the waiting limit holds under a burst (${TEST_DB_KIND})`, async () => {
  const owner = await withCard(world)
  const other = await withCard(world)
  const asked = await call(owner, 'POST', '/main/experts/hospital-requests', {
    ...REQUEST,
    name: '别人的医院',
  })
  const stolen = await call(other, 'POST', '/main/experts/application', {
    hospitalRequestId: asked.data.id,
  })
  assert.equal(stolen.status, 400)
  assert.equal(stolen.error, HOSPITAL_REQUEST_MESSAGES.notYours)
  assert.equal((await call(other, 'GET', '/main/experts/hospital-requests')).data.length, 0)

  const listed = await call(other, 'POST', '/main/experts/hospital-requests', {
    ...REQUEST,
    name: '认证测试市第一人民医院',
  })
  assert.equal(listed.status, 400)
  assert.equal(listed.error, HOSPITAL_REQUEST_MESSAGES.alreadyListed('认证测试市第一人民医院'))

  const invalid = await call(other, 'POST', '/main/experts/hospital-requests', {
    name: ' ',
    province: '测试省',
    city: '测试市',
  })
  assert.equal(invalid.status, 400)
  assert.equal(invalid.error, HOSPITAL_REQUEST_MESSAGES.nameRequired)

  const burst = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      call(other, 'POST', '/main/experts/hospital-requests', { ...REQUEST, name: `并发医院${i}` }),
    ),
  )
  const accepted = burst.filter((res) => res.status === 200)
  assert.equal(accepted.length, HOSPITAL_REQUESTS_PENDING_MAX)
  for (const res of burst.filter((r) => r.status !== 200)) {
    assert.equal(res.status, 400)
    assert.equal(res.error, HOSPITAL_REQUEST_MESSAGES.tooMany)
  }
})

test(`the operators' calls answer 403 to a patient before reading the input (${TEST_DB_KIND})`, async () => {
  const patient = await signUp(world.ctx.app.db, world.ctx.clock.now())
  const calls: ['GET' | 'POST', string, object | undefined][] = [
    ['GET', '/main/operator/hospital-requests?status=nonsense', undefined],
    ['POST', '/main/operator/hospital-requests/x1/resolve', { junk: true }],
    ['POST', '/main/operator/hospital-requests/x1/decline', { reason: '' }],
  ]
  for (const [method, url, payload] of calls) {
    const res = await call(patient, method, url, payload)
    assert.equal(res.status, 403, `${method} ${url}`)
    assert.equal(res.error, NOT_OPERATOR)
    assert.equal((await call(null, method, url, payload)).status, 401)
  }
  const unknown = await call(operators[0]!, 'POST', '/main/operator/hospital-requests/x1/resolve', {
    hospitalId: 'nope',
  })
  assert.equal(unknown.status, 400)
  assert.equal(unknown.error, HOSPITAL_REQUEST_MESSAGES.hospitalUnknown)
})
