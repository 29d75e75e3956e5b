import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DEMO_ACCOUNTS } from '../../src/domain/identity/demo'
import {
  createSession,
  findSessionByAccessToken,
  findUserByMobile,
} from '../../src/domain/identity'
import { hashPassword } from '../../src/domain/identity/secrets'
import { seed } from '../../src/domain/seed'
import { openTestDatabase } from '../helpers'

async function migrated() {
  const handle = openTestDatabase()
  await handle.migrate()
  return handle.db
}

const now = () => new Date('2030-01-01T00:00:00.000Z')

test('starting with demo mode off removes the demo accounts and their sessions', async () => {
  const db = await migrated()
  await seed(db, { demo: true, now })
  const patient = await findUserByMobile(db, DEMO_ACCOUNTS[0].mobile)
  assert.ok(patient, 'seeded in demo mode')
  const session = await createSession(db, patient.id, now())

  const report = await seed(db, { demo: false, now })
  assert.equal(report.demoAccountsRemoved, DEMO_ACCOUNTS.length)
  for (const account of DEMO_ACCOUNTS) {
    assert.equal(await findUserByMobile(db, account.mobile), undefined, account.mobile)
  }
  assert.equal(await findSessionByAccessToken(db, session.access_token, now()), undefined)
  const row = await db
    .selectFrom('users')
    .select(['mobile', 'password_hash', 'deleted_at'])
    .where('id', '=', patient.id)
    .executeTakeFirstOrThrow()
  assert.deepEqual([row.mobile, row.password_hash, row.deleted_at !== null], [null, null, true])

  // Idempotent; and demo mode on again seeds fresh accounts (the marker went with them).
  assert.equal((await seed(db, { demo: false, now })).demoAccountsRemoved, 0)
  await seed(db, { demo: true, now })
  assert.ok(await findUserByMobile(db, DEMO_ACCOUNTS[0].mobile))
})

test('an account on a demo number with its own password is a person’s, and is kept', async () => {
  const db = await migrated()
  await seed(db, { demo: true, now })
  const expert = await findUserByMobile(db, DEMO_ACCOUNTS[1].mobile)
  await db
    .updateTable('users')
    .set({ password_hash: await hashPassword('mine5678') })
    .where('id', '=', expert!.id)
    .execute()
  const report = await seed(db, { demo: false, now })
  // Every other demo account goes; this one stays.
  assert.equal(report.demoAccountsRemoved, DEMO_ACCOUNTS.length - 1)
  assert.equal((await findUserByMobile(db, DEMO_ACCOUNTS[1].mobile))?.id, expert!.id)
})
