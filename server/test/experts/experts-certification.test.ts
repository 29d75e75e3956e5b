import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { EXPERT_MESSAGES, EXPERT_PHOTOS_PER_KIND, SPECIALITY_OPTIONS } from '@contract/main/experts'
import { REASONS } from '@contract/reasons'
import { signUp, type TestUser } from '../domain/profile/support'
import { TEST_DB_KIND } from '../helpers'
import {
  caller,
  type ExpertWorld,
  expertWorld,
  fullDraft,
  PRACTICE_NO,
  pendingApplicant,
  QUALIFICATION_NO,
  uploadPhoto,
  withCard,
} from './support'

/*
 * Expert certification, the applicant's side and the state machine (domain/experts): draft →
 * pending → rejected → fixed and resubmitted → approved; withdraw; the field rules with their
 * Chinese messages; submit refused without an ID card, photos or the agreement.
 */

let world: ExpertWorld
let call: ReturnType<typeof caller>
let operator: TestUser

before(async () => {
  world = await expertWorld()
  call = caller(world)
  operator = await signUp(world.ctx.app.db, world.ctx.clock.now(), { role: 'operator' })
})

test(`certificate numbers: good ones are kept, bad ones get a Chinese message and 400 (${TEST_DB_KIND})`, async () => {
  const user = await withCard(world)
  const good = await call(user, 'POST', '/main/experts/application', {
    practiceCertificateNo: ` ${PRACTICE_NO} `,
    qualificationCertificateNo: QUALIFICATION_NO,
  })
  assert.equal(good.status, 200, good.error ?? '')
  assert.equal(good.data.practiceCertificateNo, PRACTICE_NO)
  assert.equal(good.data.status, 'draft')
  assert.equal(good.data.statusLabel, '草稿')
  // An older qualification certificate's 15-digit number is accepted.
  const older = await call(user, 'POST', '/main/experts/application', {
    qualificationCertificateNo: '123456789012345',
  })
  assert.equal(older.status, 200, older.error ?? '')

  const bad: [object, string][] = [
    [{ practiceCertificateNo: '11010119800101' }, EXPERT_MESSAGES.practiceCertificate],
    [{ practiceCertificateNo: '1101011980010112' }, EXPERT_MESSAGES.practiceCertificate],
    [{ practiceCertificateNo: '11010119800101X' }, EXPERT_MESSAGES.practiceCertificate],
    [{ qualificationCertificateNo: '12345678901234' }, EXPERT_MESSAGES.qualificationCertificate],
    [{ qualificationCertificateNo: '1'.repeat(28) }, EXPERT_MESSAGES.qualificationCertificate],
    [
      { qualificationCertificateNo: '1234567890１２３４５' },
      EXPERT_MESSAGES.qualificationCertificate,
    ],
    [{ department: '' }, EXPERT_MESSAGES.departmentRequired],
    [{ department: '科'.repeat(31) }, EXPERT_MESSAGES.departmentLong],
    [{ specialities: [] }, EXPERT_MESSAGES.specialitiesRequired],
    [{ specialities: SPECIALITY_OPTIONS.slice(0, 9) }, EXPERT_MESSAGES.specialitiesMany],
    [{ specialities: ['擅'.repeat(13)] }, EXPERT_MESSAGES.specialityLong],
    [{ specialities: ['肺结节', '包治百病'] }, EXPERT_MESSAGES.specialityUnknown],
    [{ introduction: '介'.repeat(501) }, EXPERT_MESSAGES.introductionLong],
    [{ introduction: '正常\u202Egnp.exe' }, EXPERT_MESSAGES.introductionUnsafe],
    [{ title: 'professor' }, EXPERT_MESSAGES.titleRequired],
    [{ practiceCategory: 'vet' }, EXPERT_MESSAGES.categoryRequired],
    [{ hospitalId: 'no-such-hospital' }, EXPERT_MESSAGES.hospitalUnknown],
  ]
  for (const [payload, message] of bad) {
    const res = await call(user, 'POST', '/main/experts/application', payload)
    assert.equal(res.status, 400, JSON.stringify(payload))
    assert.equal(res.error, message, JSON.stringify(payload))
  }
  // Nothing bad was stored.
  const mine = await call(user, 'GET', '/main/experts/application')
  assert.equal(mine.data.practiceCertificateNo, PRACTICE_NO)
  assert.equal(mine.data.qualificationCertificateNo, '123456789012345')
})

test(`certificate numbers are stored encrypted, never in clear (${TEST_DB_KIND})`, async () => {
  const { applicationId } = await pendingApplicant(world)
  const row = await world.ctx.app.db
    .selectFrom('expert_applications')
    .selectAll()
    .where('id', '=', applicationId)
    .executeTakeFirstOrThrow()
  assert.ok(!JSON.stringify(row).includes(PRACTICE_NO))
  assert.ok(!JSON.stringify(row).includes(QUALIFICATION_NO))
})

test(`submit is refused without an ID card, fields, photos or the current agreement (${TEST_DB_KIND})`, async () => {
  const noCard = await signUp(world.ctx.app.db, world.ctx.clock.now())
  assert.equal(
    (await call(noCard, 'POST', '/main/experts/application', fullDraft(world))).status,
    200,
  )
  const refusedNoCard = await world.ctx.app.inject({
    method: 'POST',
    url: '/main/experts/application/submit',
    headers: { authorization: `Bearer ${noCard.token}` },
    payload: { agreementVersion: world.agreementVersion },
  })
  assert.equal(refusedNoCard.statusCode, 400)
  const envelope = refusedNoCard.json() as { error: string; reason: string }
  assert.equal(envelope.error, EXPERT_MESSAGES.idCardMissing)
  assert.equal(envelope.reason, REASONS.expertIdCardMissing)

  const user = await withCard(world)
  const nothing = await call(user, 'POST', '/main/experts/application/submit', {
    agreementVersion: world.agreementVersion,
  })
  assert.equal(nothing.status, 400)
  assert.equal(nothing.error, EXPERT_MESSAGES.noApplication)

  const { practiceScope: _scope, ...withoutScope } = fullDraft(world)
  await call(user, 'POST', '/main/experts/application', withoutScope)
  const noScope = await call(user, 'POST', '/main/experts/application/submit', {
    agreementVersion: world.agreementVersion,
  })
  assert.equal(noScope.status, 400)
  assert.equal(noScope.error, EXPERT_MESSAGES.fieldsMissing('执业范围'))

  await call(user, 'POST', '/main/experts/application', fullDraft(world))
  assert.equal((await uploadPhoto(world, user, 'practice-info')).status, 200)
  const onePhoto = await call(user, 'POST', '/main/experts/application/submit', {
    agreementVersion: world.agreementVersion,
  })
  assert.equal(onePhoto.status, 400)
  assert.equal(onePhoto.error, EXPERT_MESSAGES.photosMissing)

  assert.equal((await uploadPhoto(world, user, 'practice-registration')).status, 200)
  const oldAgreement = await call(user, 'POST', '/main/experts/application/submit', {
    agreementVersion: '0.0.1',
  })
  assert.equal(oldAgreement.status, 400)
  assert.equal(oldAgreement.error, EXPERT_MESSAGES.agreementOutdated)
  const noAgreement = await call(user, 'POST', '/main/experts/application/submit', {})
  assert.equal(noAgreement.status, 400)
  assert.equal(noAgreement.error, EXPERT_MESSAGES.agreementRequired)

  const ok = await call(user, 'POST', '/main/experts/application/submit', {
    agreementVersion: world.agreementVersion,
  })
  assert.equal(ok.status, 200, ok.error ?? '')
  assert.equal(ok.data.statusLabel, '待审核')
  const consents = await world.ctx.app.db
    .selectFrom('consents')
    .select(['kind', 'version'])
    .where('user_id', '=', user.user.id)
    .where('kind', '=', 'expert')
    .execute()
  assert.deepEqual(consents, [{ kind: 'expert', version: world.agreementVersion }])
  // Pending is locked: editing needs a withdrawal first.
  const locked = await call(user, 'POST', '/main/experts/application', { department: '内科' })
  assert.equal(locked.status, 409)
  assert.equal(locked.error, EXPERT_MESSAGES.pendingLocked)
})

test(`photos: re-encoded, at most ${EXPERT_PHOTOS_PER_KIND} per kind, junk refused with 400 (${TEST_DB_KIND})`, async () => {
  const user = await withCard(world)
  const ids: string[] = []
  for (let i = 0; i < EXPERT_PHOTOS_PER_KIND; i += 1) {
    const up = await uploadPhoto(world, user, 'badge')
    assert.equal(up.status, 200, up.error ?? '')
    ids.push(up.data.photos.at(-1).id as string)
  }
  const fourth = await uploadPhoto(world, user, 'badge')
  assert.equal(fourth.status, 400)
  assert.equal(fourth.error, EXPERT_MESSAGES.photosTooMany)
  const junk = await uploadPhoto(world, user, 'practice-info', Buffer.from('not an image at all'))
  assert.equal(junk.status, 400)
  assert.equal(junk.error, '证书照片只支持 JPG 或 PNG 格式')
  const badKind = await uploadPhoto(world, user, 'selfie')
  assert.equal(badKind.status, 400)

  const photo = await world.ctx.app.inject({
    url: `/main/experts/photos/${ids[0]}`,
    headers: { authorization: `Bearer ${user.token}` },
  })
  assert.equal(photo.statusCode, 200)
  assert.equal(photo.headers['content-type'], 'image/jpeg')
  // Re-encoded: a JFIF JPEG, with no EXIF segment.
  assert.equal(photo.rawPayload.subarray(0, 2).toString('hex'), 'ffd8')
  assert.equal(photo.rawPayload.includes(Buffer.from('Exif')), false)

  const removed = await call(user, 'DELETE', `/main/experts/application/photos/${ids[0]}`)
  assert.equal(removed.status, 200, removed.error ?? '')
  assert.equal(removed.data.photos.length, EXPERT_PHOTOS_PER_KIND - 1)
  const gone = await world.ctx.app.inject({
    url: `/main/experts/photos/${ids[0]}`,
    headers: { authorization: `Bearer ${user.token}` },
  })
  assert.equal(gone.statusCode, 404)
})

test(`the state machine: draft → pending → rejected → fixed, resubmitted → approved; the role becomes expert (${TEST_DB_KIND})`, async () => {
  const { user, applicationId } = await pendingApplicant(world, '王主任')
  const rejected = await call(
    operator,
    'POST',
    `/main/operator/expert-applications/${applicationId}/reject`,
    { reason: '执业证书注册页照片不清晰' },
  )
  assert.equal(rejected.status, 200, rejected.error ?? '')
  assert.equal(rejected.data.status, 'rejected')
  assert.equal(rejected.data.certifiedName, '王主任')

  const seen = await call(user, 'GET', '/main/experts/application')
  assert.equal(seen.data.statusLabel, '已驳回')
  assert.equal(seen.data.rejectReason, '执业证书注册页照片不清晰')
  // Still a patient: a rejection grants nothing.
  assert.equal(await roleOf(user), 'patient')

  world.ctx.clock.advance(1000)
  // Fixing it: a new photo makes it a draft again, then it is submitted again (same application).
  const fixed = await uploadPhoto(world, user, 'practice-registration')
  assert.equal(fixed.status, 200, fixed.error ?? '')
  assert.equal(fixed.data.status, 'draft')
  assert.equal(fixed.data.id, applicationId)
  const again = await call(user, 'POST', '/main/experts/application/submit', {
    agreementVersion: world.agreementVersion,
  })
  assert.equal(again.status, 200, again.error ?? '')
  assert.equal(again.data.status, 'pending')

  const approved = await call(
    operator,
    'POST',
    `/main/operator/expert-applications/${applicationId}/approve`,
  )
  assert.equal(approved.status, 200, approved.error ?? '')
  assert.equal(approved.data.statusLabel, '已认证')
  assert.equal(await roleOf(user), 'expert')
  const profile = await world.ctx.app.db
    .selectFrom('experts')
    .selectAll()
    .where('user_id', '=', user.user.id)
    .executeTakeFirstOrThrow()
  assert.equal(profile.department, '放射科')
  assert.equal(profile.title, 'attending')

  // The applicant got a message for each decision.
  const messages = await world.ctx.app.db
    .selectFrom('messages')
    .select('title')
    .where('user_id', '=', user.user.id)
    .orderBy('created_at')
    .execute()
  assert.deepEqual(
    messages.map((m) => m.title),
    ['专家认证未通过', '专家认证已通过'],
  )

  // A certified expert's new application (another department) leaves the profile as it is.
  world.ctx.clock.advance(1000)
  const change = await call(user, 'POST', '/main/experts/application', { department: '核医学科' })
  assert.equal(change.status, 200, change.error ?? '')
  assert.notEqual(change.data.id, applicationId)
  assert.equal(change.data.photos.length, 0)
  for (const kind of ['practice-info', 'practice-registration']) {
    assert.equal((await uploadPhoto(world, user, kind)).status, 200)
  }
  const resubmitted = await call(user, 'POST', '/main/experts/application/submit', {
    agreementVersion: world.agreementVersion,
  })
  assert.equal(resubmitted.status, 200, resubmitted.error ?? '')
  const still = await world.ctx.app.db
    .selectFrom('experts')
    .select('department')
    .where('user_id', '=', user.user.id)
    .executeTakeFirstOrThrow()
  assert.equal(still.department, '放射科')
  assert.equal(await roleOf(user), 'expert')
  // Meanwhile the expert rewrites the introduction, which takes effect at once (settings).
  await world.ctx.app.db
    .updateTable('experts')
    .set({ introduction: '已更新的简介。', specialities: JSON.stringify(['神经影像']) })
    .where('user_id', '=', user.user.id)
    .execute()
  const approvedAgain = await call(
    operator,
    'POST',
    `/main/operator/expert-applications/${resubmitted.data.id}/approve`,
  )
  assert.equal(approvedAgain.status, 200)
  const now = await world.ctx.app.db
    .selectFrom('experts')
    .select(['department', 'introduction', 'specialities'])
    .where('user_id', '=', user.user.id)
    .executeTakeFirstOrThrow()
  assert.equal(now.department, '核医学科')
  // The approval of the change does not undo what the expert changed at once.
  assert.equal(now.introduction, '已更新的简介。')
  assert.deepEqual(JSON.parse(now.specialities), ['神经影像'])
})

test(`an operator who applies stays an operator once approved, and may use the expert's own calls (${TEST_DB_KIND})`, async () => {
  const { user, applicationId } = await pendingApplicant(world)
  await world.ctx.app.db
    .updateTable('users')
    .set({ role: 'operator' })
    .where('id', '=', user.user.id)
    .execute()
  const other = await signUp(world.ctx.app.db, world.ctx.clock.now(), { role: 'operator' })
  const approved = await call(
    other,
    'POST',
    `/main/operator/expert-applications/${applicationId}/approve`,
  )
  assert.equal(approved.status, 200, approved.error ?? '')
  assert.equal(await roleOf(user), 'operator')
  // Certified all the same: the expert's own calls are theirs (the session knows the experts row),
  // and the operator's stay theirs too.
  const settings = await call(user, 'GET', '/main/experts/me')
  assert.equal(settings.status, 200, settings.error ?? '')
  assert.equal(settings.data.profile.id, user.user.id)
  assert.equal((await call(user, 'GET', '/main/operator/expert-applications')).status, 200)
})

test(`withdraw: a pending application is withdrawn and its photo files are deleted (${TEST_DB_KIND})`, async () => {
  const { user, application } = await pendingApplicant(world)
  const keys = await world.ctx.app.db
    .selectFrom('expert_application_photos')
    .select('storage_key')
    .where('application_id', '=', application.id)
    .execute()
  assert.equal(keys.length, 2)
  for (const { storage_key } of keys) assert.ok(await world.ctx.app.store.exists(storage_key))

  const withdrawn = await call(user, 'POST', '/main/experts/application/withdraw')
  assert.equal(withdrawn.status, 200, withdrawn.error ?? '')
  assert.equal(withdrawn.data.statusLabel, '已撤回')
  assert.equal(withdrawn.data.photos.length, 0)
  for (const { storage_key } of keys)
    assert.equal(await world.ctx.app.store.exists(storage_key), false)
  for (const photo of application.photos as { path: string }[]) {
    const res = await world.ctx.app.inject({
      url: photo.path,
      headers: { authorization: `Bearer ${user.token}` },
    })
    assert.equal(res.statusCode, 404)
  }
  const twice = await call(user, 'POST', '/main/experts/application/withdraw')
  assert.equal(twice.status, 409)
  assert.equal(twice.error, EXPERT_MESSAGES.notWithdrawable)
  // The operator cannot decide a withdrawn application.
  const late = await call(
    operator,
    'POST',
    `/main/operator/expert-applications/${application.id}/approve`,
  )
  assert.equal(late.status, 409)
  assert.equal(late.error, EXPERT_MESSAGES.alreadyDecided)
  // A draft can be withdrawn too, and a new one started after.
  const draft = await call(user, 'POST', '/main/experts/application', { department: '内科' })
  assert.equal(draft.status, 200)
  assert.equal(draft.data.status, 'draft')
  assert.equal((await call(user, 'POST', '/main/experts/application/withdraw')).status, 200)
})

test(`saves racing to start an application make one open application, never two (${TEST_DB_KIND})`, async () => {
  const user = await withCard(world)
  const answers = await Promise.all(
    ['内科', '外科', '放射科', '超声科'].map((department) =>
      call(user, 'POST', '/main/experts/application', { department }),
    ),
  )
  // A save that lost a race on the row's version is told to retry (409), never a 500.
  for (const res of answers)
    assert.ok([200, 409].includes(res.status), `${res.status} ${res.error}`)
  assert.ok(answers.some((res) => res.status === 200))
  const open = await world.ctx.app.db
    .selectFrom('expert_applications')
    .select('id')
    .where('user_id', '=', user.user.id)
    .where('status', 'in', ['draft', 'pending'])
    .execute()
  assert.equal(open.length, 1)
  assert.ok(answers.filter((res) => res.status === 200).every((res) => res.data.id === open[0]!.id))
})

async function roleOf(user: TestUser): Promise<string> {
  const row = await world.ctx.app.db
    .selectFrom('users')
    .select('role')
    .where('id', '=', user.user.id)
    .executeTakeFirstOrThrow()
  return row.role
}
