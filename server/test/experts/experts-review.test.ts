import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { EXPERT_MESSAGES } from '@contract/main/experts'
import { NOT_OPERATOR } from '../../src/http/auth'
import { signUp, type TestUser } from '../domain/profile/support'
import { TEST_DB_KIND } from '../helpers'
import { caller, type ExpertWorld, expertWorld, pendingApplicant } from './support'

/*
 * The operators' review and who may see what: photos and applications are the applicant's and
 * operators' only (404 to anyone else, as for what does not exist); the review calls are 403 to
 * anyone but an operator before their input is read; two operators deciding at once: exactly one
 * decision counts, with one audit line and one message.
 */

let world: ExpertWorld
let call: ReturnType<typeof caller>
let operators: TestUser[]
let patient: TestUser
let expert: TestUser

before(async () => {
  world = await expertWorld()
  call = caller(world)
  const now = world.ctx.clock.now()
  operators = [
    await signUp(world.ctx.app.db, now, { role: 'operator' }),
    await signUp(world.ctx.app.db, now, { role: 'operator' }),
    await signUp(world.ctx.app.db, now, { role: 'operator' }),
  ]
  patient = await signUp(world.ctx.app.db, now)
  expert = await signUp(world.ctx.app.db, now, { role: 'expert' })
})

test(`the review calls answer 403 to a patient and an expert before reading the input, 401 to nobody (${TEST_DB_KIND})`, async () => {
  const calls: ['GET' | 'POST', string, object | undefined][] = [
    // Inputs that would be refused as 400 if they were read: the role is checked first.
    ['GET', '/main/operator/expert-applications?page=0&status=nonsense', undefined],
    ['GET', '/main/operator/expert-applications/x1', undefined],
    ['POST', '/main/operator/expert-applications/x1/approve', { junk: true }],
    ['POST', '/main/operator/expert-applications/x1/reject', { reason: '' }],
  ]
  for (const [method, url, payload] of calls) {
    for (const user of [patient, expert]) {
      const res = await call(user, method, url, payload)
      assert.equal(res.status, 403, `${method} ${url}`)
      assert.equal(res.error, NOT_OPERATOR)
    }
    assert.equal((await call(null, method, url, payload)).status, 401, `${method} ${url}`)
  }
  const reasonless = await call(
    operators[0]!,
    'POST',
    '/main/operator/expert-applications/x1/reject',
    {
      reason: ' ',
    },
  )
  assert.equal(reasonless.status, 400)
  assert.equal(reasonless.error, EXPERT_MESSAGES.rejectReasonRequired)
  const unsafe = await call(operators[0]!, 'POST', '/main/operator/expert-applications/x1/reject', {
    reason: '照片不清晰\u202E',
  })
  assert.equal(unsafe.status, 400)
  assert.equal(unsafe.error, EXPERT_MESSAGES.rejectReasonUnsafe)
  const tooLong = await call(
    operators[0]!,
    'POST',
    '/main/operator/expert-applications/x1/reject',
    {
      reason: '因'.repeat(201),
    },
  )
  assert.equal(tooLong.status, 400)
  assert.equal(tooLong.error, EXPERT_MESSAGES.rejectReasonLong)
  const missing = await call(operators[0]!, 'GET', '/main/operator/expert-applications/x1')
  assert.equal(missing.status, 404)
})

test(`photos and applications: the applicant and operators only; anyone else 404, as for a missing one (${TEST_DB_KIND})`, async () => {
  const { user, application } = await pendingApplicant(world)
  const photoPath = (application.photos as { path: string }[])[0]!.path
  const photoId = photoPath.split('/').at(-1)!
  const get = (who: TestUser | null, url: string) =>
    world.ctx.app.inject({
      url,
      headers: who ? { authorization: `Bearer ${who.token}` } : {},
    })
  assert.equal((await get(user, photoPath)).statusCode, 200)
  assert.equal((await get(operators[0]!, photoPath)).statusCode, 200)
  const missing = await get(patient, '/main/experts/photos/00000000-0000-0000-0000-000000000000')
  for (const who of [patient, expert]) {
    const res = await get(who, photoPath)
    assert.equal(res.statusCode, 404)
    assert.equal(res.body, missing.body)
  }
  assert.equal((await get(null, photoPath)).statusCode, 401)

  // Another person cannot delete it either: 404, and it is still there.
  const deleted = await call(patient, 'DELETE', `/main/experts/application/photos/${photoId}`)
  assert.equal(deleted.status, 404)
  assert.equal(deleted.error, EXPERT_MESSAGES.photoNotFound)
  assert.equal((await get(user, photoPath)).statusCode, 200)

  // Another person's "my application" is their own (none), never the applicant's.
  const theirs = await call(patient, 'GET', '/main/experts/application')
  assert.equal(theirs.status, 200)
  assert.equal(theirs.data, null)
  const own = await call(user, 'GET', '/main/experts/application')
  assert.equal(own.data.id, application.id)
  assert.equal(own.data.photos.length, 2)

  // The operator's queue and detail carry the name on the bound card and the photos.
  const detail = await call(
    operators[0]!,
    'GET',
    `/main/operator/expert-applications/${application.id}`,
  )
  assert.equal(detail.status, 200, detail.error ?? '')
  assert.equal(detail.data.certifiedName, '李医生')
  assert.equal(detail.data.photos.length, 2)
})

test(`the queue: pending only by default, oldest submission first, paged (${TEST_DB_KIND})`, async () => {
  const first = await pendingApplicant(world)
  world.ctx.clock.advance(60_000)
  const second = await pendingApplicant(world)
  const queue = await call(operators[0]!, 'GET', '/main/operator/expert-applications?pageSize=50')
  assert.equal(queue.status, 200, queue.error ?? '')
  const ids = (queue.data.items as { id: string; status: string }[]).map((item) => item.id)
  assert.ok(ids.indexOf(first.applicationId) < ids.indexOf(second.applicationId))
  assert.ok((queue.data.items as { status: string }[]).every((item) => item.status === 'pending'))
  assert.equal(queue.data.total, ids.length)
  const paged = await call(
    operators[0]!,
    'GET',
    '/main/operator/expert-applications?pageSize=1&page=2',
  )
  assert.equal(paged.data.items.length, 1)
  assert.equal(paged.data.items[0].id, ids[1])
})

for (const mix of ['approve', 'reject', 'mixed'] as const) {
  test(`a burst of operators deciding at once (${mix}): exactly one counts, one audit line, one message (${TEST_DB_KIND})`, async () => {
    const { user, applicationId } = await pendingApplicant(world)
    const requests = operators.flatMap((op, i) => {
      const approve = mix === 'approve' || (mix === 'mixed' && i % 2 === 0)
      const one = () =>
        world.ctx.app.inject({
          method: 'POST',
          url: `/main/operator/expert-applications/${applicationId}/${approve ? 'approve' : 'reject'}`,
          headers: { authorization: `Bearer ${op.token}` },
          payload: approve ? {} : { reason: `证书信息与注册系统不一致（${i}）` },
        })
      return [one(), one()]
    })
    const answers = await Promise.all(requests)
    const statuses = answers.map((res) => res.statusCode).sort()
    assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','))
    assert.deepEqual(
      statuses.filter((s) => s !== 200),
      Array.from({ length: answers.length - 1 }, () => 409),
    )
    for (const res of answers.filter((r) => r.statusCode === 409)) {
      assert.equal((res.json() as { error: string }).error, EXPERT_MESSAGES.alreadyDecided)
    }
    const audit = await world.ctx.app.db
      .selectFrom('operator_actions')
      .select('action')
      .where('target_id', '=', applicationId)
      .execute()
    assert.equal(audit.length, 1)
    const messages = await world.ctx.app.db
      .selectFrom('messages')
      .select('title')
      .where('user_id', '=', user.user.id)
      .execute()
    assert.equal(messages.length, 1)
    const row = await world.ctx.app.db
      .selectFrom('expert_applications')
      .select('status')
      .where('id', '=', applicationId)
      .executeTakeFirstOrThrow()
    assert.equal(audit[0]!.action, row.status === 'approved' ? 'expert-approve' : 'expert-reject')
    const role = await world.ctx.app.db
      .selectFrom('users')
      .select('role')
      .where('id', '=', user.user.id)
      .executeTakeFirstOrThrow()
    assert.equal(role.role, row.status === 'approved' ? 'expert' : 'patient')
    const profiles = await world.ctx.app.db
      .selectFrom('experts')
      .select('user_id')
      .where('user_id', '=', user.user.id)
      .execute()
    assert.equal(profiles.length, row.status === 'approved' ? 1 : 0)
  })
}

test(`the audit log names the decisions in Chinese (${TEST_DB_KIND})`, async () => {
  const actions = await call(operators[0]!, 'GET', '/main/operator/actions?pageSize=50')
  assert.equal(actions.status, 200)
  const labels = new Set((actions.data.items as { label: string }[]).map((item) => item.label))
  assert.ok(labels.has('通过专家认证') || labels.has('驳回专家认证'))
})
