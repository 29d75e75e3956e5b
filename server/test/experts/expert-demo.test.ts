import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  DEMO_APPLICANT_ID,
  DEMO_EXPERTS,
  removeDemoExperts,
  seedDemoExperts,
} from '../../src/domain/experts'
import { DEMO_ACCOUNTS, findUserByMobile } from '../../src/domain/identity'
import { json } from '../content/support'
import { signUp } from '../domain/profile/support'
import { buildTestApp, TEST_DB_KIND } from '../helpers'

/*
 * Demo mode's experts: the demo expert account certified at 示例市第一人民医院, ten more 演示专家
 * in the directory, a pending application with drawn photos in the operators' queue; written once,
 * and all of it (files too) gone when demo mode is off, back when it is on again.
 */

test(`demo experts: written once, public and marked, removed with their files, written again (${TEST_DB_KIND})`, async () => {
  const app = await buildTestApp({ demoMode: true })
  const now = new Date()
  assert.equal(await seedDemoExperts(app.db, app.personalCipher, app.store, now), true)
  assert.equal(await seedDemoExperts(app.db, app.personalCipher, app.store, now), false, 'once')

  const directory = await json(app, { url: '/main/experts?pageSize=50' })
  assert.equal(directory.status, 200, directory.error ?? '')
  assert.equal(directory.data.total, DEMO_EXPERTS.length + 1)
  assert.ok(directory.data.items.every((e: { demo: boolean }) => e.demo))
  const account = await findUserByMobile(app.db, DEMO_ACCOUNTS[1].mobile)
  const profile = await json(app, { url: `/main/experts/${account!.id}` })
  assert.equal(profile.status, 200, profile.error ?? '')
  assert.equal(profile.data.name, '演示专家')
  assert.equal(profile.data.hospital.name, '示例市第一人民医院')
  assert.match(profile.data.introduction, /演示/)
  const hospitals = new Set(
    directory.data.items.map((e: { hospital: { id: string } }) => e.hospital.id),
  )
  assert.deepEqual([...hospitals].sort(), [
    'demo-hospital-01',
    'demo-hospital-02',
    'demo-hospital-03',
  ])
  assert.ok(
    new Set(directory.data.items.map((e: { department: string }) => e.department)).size >= 6,
  )

  const operator = await signUp(app.db, now, { role: 'operator' })
  const queue = await json(app, {
    url: '/main/operator/expert-applications',
    token: operator.token,
  })
  assert.equal(queue.status, 200, queue.error ?? '')
  const pending = queue.data.items.find((a: { userId: string }) => a.userId === DEMO_APPLICANT_ID)
  assert.ok(pending, 'the demo application waits in the queue')
  assert.equal(pending.certifiedName, '演示申请人')
  assert.equal(pending.photos.length, 2)
  const photo = await app.inject({
    url: pending.photos[0].path,
    headers: { authorization: `Bearer ${operator.token}` },
  })
  assert.equal(photo.statusCode, 200)
  assert.equal(photo.headers['content-type'], 'image/jpeg')

  const keys = await app.db.selectFrom('expert_application_photos').select('storage_key').execute()
  assert.equal(await removeDemoExperts(app.db, app.store), DEMO_EXPERTS.length + 1)
  assert.equal((await json(app, { url: '/main/experts' })).data.total, 0)
  const after = await json(app, {
    url: '/main/operator/expert-applications',
    token: operator.token,
  })
  assert.equal(after.data.total, 0)
  for (const { storage_key } of keys) {
    await assert.rejects(app.store.get(storage_key), Error, `${storage_key} removed`)
  }
  assert.equal(await removeDemoExperts(app.db, app.store), 0, 'nothing left the second time')

  // Demo mode on again: written again (the demo account keeps its card, now bound).
  assert.equal(await seedDemoExperts(app.db, app.personalCipher, app.store, now), true)
  assert.equal((await json(app, { url: '/main/experts' })).data.total, DEMO_EXPERTS.length + 1)
})
