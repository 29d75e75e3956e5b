import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { GRANT_MESSAGES } from '@contract/main/grants'
import { eraseAccount } from '../../src/domain/profile/account'
import { sharingWorld } from './support'

/*
 * A deleted account (a soft delete: the users row stays, anonymised) takes its grants with it:
 * the link stops answering, the grantee's list forgets it, and the view log goes (FK cascades).
 */

test('deleting the owner ends her links and account grants, their sessions and views', async () => {
  const w = await sharingWorld()
  const link = await w.call('POST', '/main/grants', w.alice.token, {
    audience: 'link',
    examIds: [w.study.examId],
    reportIds: [],
    duration: '7d',
  })
  const account = await w.call('POST', '/main/grants', w.alice.token, {
    audience: 'account',
    mobile: w.bob.mobile,
    examIds: [w.study.examId],
    reportIds: [],
    duration: '7d',
  })
  assert.equal(account.status, 200)
  const token = link.data.link.token as string
  const visitor = (await w.call('POST', `/main/shares/${token}/open`, undefined, {})).data
    .accessToken as string
  assert.equal((await w.frame(w.study, visitor)).status, 200)

  await eraseAccount(w.app.db, w.alice.user.id, w.alice.mobile, w.clock.now())

  const left = await w.app.db
    .selectFrom('grants')
    .select('id')
    .where('person_user_id', '=', w.alice.user.id)
    .execute()
  assert.deepEqual(left, [])
  assert.equal((await w.app.db.selectFrom('grant_views').selectAll().execute()).length, 0)
  assert.equal((await w.app.db.selectFrom('share_sessions').selectAll().execute()).length, 0)
  const preview = await w.call('GET', `/main/shares/${token}`)
  assert.equal(preview.status, 404)
  assert.equal(preview.error, GRANT_MESSAGES.linkInvalid)
  assert.equal((await w.frame(w.study, visitor)).error, GRANT_MESSAGES.linkInvalid)
  assert.deepEqual((await w.call('GET', '/main/grants/received', w.bob.token)).data, [])
  assert.equal((await w.frame(w.study, w.bob.token)).status, 404)
})

test('deleting a family manager ends the grants they made of the member’s records', async () => {
  const w = await sharingWorld()
  // carol manages alice (an adult who agreed: the link as the SMS flow leaves it).
  await w.app.db
    .insertInto('family_links')
    .values({
      id: randomUUID(),
      manager_user_id: w.carol.user.id,
      member_user_id: w.alice.user.id,
      kind: 'adult',
      relation: 'spouse',
      created_at: w.clock.now().toISOString(),
      ended_at: null,
    })
    .execute()
  const made = await w.call('POST', '/main/grants', w.carol.token, {
    audience: 'link',
    examIds: [w.study.examId],
    reportIds: [],
    duration: '30d',
    personId: w.alice.user.id,
  })
  assert.equal(made.status, 200, JSON.stringify(made))
  const token = made.data.link.token as string
  const visitor = (await w.call('POST', `/main/shares/${token}/open`, undefined, {})).data
    .accessToken as string
  assert.equal((await w.frame(w.study, visitor)).status, 200)

  await eraseAccount(w.app.db, w.carol.user.id, w.carol.mobile, w.clock.now())

  assert.equal((await w.frame(w.study, visitor)).error, GRANT_MESSAGES.ended)
  const opened = await w.call('POST', `/main/shares/${token}/open`, undefined, {})
  assert.equal(opened.status, 403)
  // alice still sees it in her 授权记录, ended.
  const listed = await w.call('GET', '/main/grants', w.alice.token)
  assert.equal(
    listed.data.find((g: { id: string }) => g.id === made.data.grant.id)?.status,
    'revoked',
  )
})
