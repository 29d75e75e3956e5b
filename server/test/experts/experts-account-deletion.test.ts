import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { purgeExpired } from '../../src/domain/retention'
import { eraseAccount } from '../../src/domain/profile'
import { signUp, type TestUser } from '../domain/profile/support'
import { TEST_DB_KIND } from '../helpers'
import { caller, type ExpertWorld, expertWorld, pendingApplicant } from './support'

/*
 * Account deletion and expert certification: the profile and what identifies the applicant go in
 * the deletion's transaction; the certificate photos' bytes and the emptied applications go with the
 * next purge, which a crash between the two only delays.
 */

let world: ExpertWorld
let call: ReturnType<typeof caller>
let operator: TestUser

before(async () => {
  world = await expertWorld()
  call = caller(world)
  operator = await signUp(world.ctx.app.db, world.ctx.clock.now(), { role: 'operator' })
})

async function erase(user: TestUser) {
  const { db } = world.ctx.app
  await db
    .transaction()
    .execute(async (trx) => eraseAccount(trx, user.user.id, user.mobile, world.ctx.clock.now()))
}

test(`a deleted applicant's certificate photos and numbers are gone, and the queue no longer shows them (${TEST_DB_KIND})`, async () => {
  const { db } = world.ctx.app
  const store = world.ctx.app.store
  const { user, applicationId, application } = await pendingApplicant(world, '赵医生')
  const photoKeys = (
    await db
      .selectFrom('expert_application_photos')
      .select('storage_key')
      .where('application_id', '=', applicationId)
      .execute()
  ).map((row) => row.storage_key)
  assert.equal(photoKeys.length, 2)
  for (const key of photoKeys) assert.ok(await store.exists(key))
  await call(user, 'POST', '/main/experts/hospital-requests', {
    name: '注销测试医院',
    province: '测试省',
    city: '测试市',
  })

  await erase(user)

  const row = await db
    .selectFrom('expert_applications')
    .selectAll()
    .where('id', '=', applicationId)
    .executeTakeFirstOrThrow()
  assert.equal(row.status, 'withdrawn')
  assert.equal(row.practice_cert_encrypted, null)
  assert.equal(row.qualification_cert_encrypted, null)
  const requests = await db
    .selectFrom('hospital_requests')
    .select('id')
    .where('user_id', '=', user.user.id)
    .execute()
  assert.equal(requests.length, 0)
  const queue = await call(operator, 'GET', '/main/operator/expert-applications')
  assert.ok(!queue.data.items.some((item: { id: string }) => item.id === applicationId))

  const counts = await purgeExpired(db, world.ctx.clock.now(), store)
  assert.equal(counts.expertApplications, 3, 'two photos and their application')
  for (const key of photoKeys) assert.equal(await store.exists(key), false, key)
  const photo = await call(operator, 'GET', application.photos[0].path)
  assert.equal(photo.status, 404)
  const left = await db
    .selectFrom('expert_applications')
    .select('id')
    .where('user_id', '=', user.user.id)
    .execute()
  assert.equal(left.length, 0)
  // Nothing is left for the next run.
  assert.equal((await purgeExpired(db, world.ctx.clock.now(), store)).expertApplications, 0)
})

test(`a deleted expert's profile and the favourites of it go with the account (${TEST_DB_KIND})`, async () => {
  const { db } = world.ctx.app
  const { user, applicationId } = await pendingApplicant(world, '钱医生')
  const approved = await call(
    operator,
    'POST',
    `/main/operator/expert-applications/${applicationId}/approve`,
  )
  assert.equal(approved.status, 200, approved.error ?? '')
  const fan = await signUp(db, world.ctx.clock.now())
  await db
    .insertInto('favourites')
    .values({
      user_id: fan.user.id,
      kind: 'expert',
      target_id: user.user.id,
      created_at: world.ctx.clock.now().toISOString(),
    })
    .execute()

  await erase(user)

  const expert = await db
    .selectFrom('experts')
    .select('user_id')
    .where('user_id', '=', user.user.id)
    .executeTakeFirst()
  assert.equal(expert, undefined)
  const favourites = await db
    .selectFrom('favourites')
    .select('user_id')
    .where('target_id', '=', user.user.id)
    .execute()
  assert.equal(favourites.length, 0)
  // The operators' record of the decision stays: it names the application, not the person's data.
  const actions = await db
    .selectFrom('operator_actions')
    .select('action')
    .where('target_id', '=', applicationId)
    .execute()
  assert.deepEqual(
    actions.map((a) => a.action),
    ['expert-approve'],
  )
})
