import assert from 'node:assert/strict'
import { test } from 'node:test'
import { withdrawalPayee } from '../../src/db/migrations/0027-withdrawal-payee'
import { INCOME_REPORT_PATH } from '../../src/routes/main/wallet'
import { smsCode, type TestUser } from '../domain/profile/support'
import {
  creditIncome,
  walletExpert,
  walletWorld,
  type WalletWorld,
  withdrawToTheEnd,
} from './support'

/*
 * The quarterly income report (国务院令第810号 art. 4) names everyone paid in the quarter. An expert
 * paid out who then deletes their account loses the ID card and the expert profile, so the report
 * takes the payee kept with their withdrawals (migration 0027): the real name, the full ID number and
 * the 执业机构, from the withdrawal made while they were there. Migration 0027 gives withdrawals made
 * before it the payee of the ID card and profile that still exist.
 */

async function idNumberOf(world: WalletWorld, userId: string) {
  const card = await world.app.db
    .selectFrom('id_cards')
    .select('number_encrypted')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
  return world.app.personalCipher.decrypt(card.number_encrypted)
}

async function deleteAccount(world: WalletWorld, user: TestUser) {
  const code = await smsCode(world.app.db, user.mobile!, 'delete', world.clock.now())
  const deleted = await world.call(user, 'POST', '/main/account/delete', { code })
  assert.equal(deleted.status, 200, deleted.error ?? '')
}

async function reportLines(world: WalletWorld, quarter: string) {
  const res = await world.app.inject({
    method: 'GET',
    url: `${INCOME_REPORT_PATH}?quarter=${quarter}`,
    headers: { authorization: `Bearer ${world.operator.token}` },
  })
  assert.equal(res.statusCode, 200, res.body)
  return res.body.slice(1).trim().split('\r\n').slice(1)
}

test('an expert paid out, then deleted, is still in the quarter’s income report with name and full ID number', async () => {
  const world = await walletWorld()
  await world.setLimits({ reviewAboveFen: 10_000_000 })
  const gone = await walletExpert(world, '王离职')
  const stays = await walletExpert(world, '李专家')
  await creditIncome(world, gone.user.id, 1_000_000)
  await creditIncome(world, stays.user.id, 300_000)
  assert.equal((await withdrawToTheEnd(world, gone, '10000')).state, 'paid')
  assert.equal((await withdrawToTheEnd(world, stays, '1000')).state, 'paid')
  const goneNumber = await idNumberOf(world, gone.user.id)
  const staysNumber = await idNumberOf(world, stays.user.id)
  const before = await reportLines(world, '2030Q2')

  // The whole balance was paid out, so the account can go, through the app's own deletion.
  await deleteAccount(world, gone)
  const card = await world.app.db
    .selectFrom('id_cards')
    .select('id')
    .where('user_id', '=', gone.user.id)
    .executeTakeFirst()
  assert.equal(card, undefined, 'the ID card went with the account')
  const profile = await world.app.db
    .selectFrom('experts')
    .select('user_id')
    .where('user_id', '=', gone.user.id)
    .executeTakeFirst()
  assert.equal(profile, undefined, 'so did the expert profile')

  const after = await reportLines(world, '2030Q2')
  // Sorted by name: 李 before 王. 10,000 元 in June: (10,000 × 80% − 5,000) × 3% = 90 元 withheld;
  // 1,000 元: 800 − 5,000 is below zero, nothing withheld.
  assert.deepEqual(after, [
    `1,李专家,居民身份证,${staysNumber},中国,会诊测试医院,3000.00,0.00,3000.00,1000.00,0.00,1000.00`,
    `2,王离职,居民身份证,${goneNumber},中国,会诊测试医院,10000.00,0.00,10000.00,10000.00,90.00,9910.00`,
  ])
  assert.deepEqual(after, before, 'the same report as before the deletion')

  // The payee is ciphertext at rest, never the name or number in clear.
  const kept = await world.app.db
    .selectFrom('withdrawals')
    .select(['payee_name_encrypted', 'payee_id_number_encrypted'])
    .where('expert_user_id', '=', gone.user.id)
    .executeTakeFirstOrThrow()
  assert.ok(!kept.payee_name_encrypted!.includes('王离职'))
  assert.ok(!kept.payee_id_number_encrypted!.includes(goneNumber))
  assert.equal(world.app.personalCipher.decrypt(kept.payee_id_number_encrypted!), goneNumber)
  assert.ok(!world.logs.some((line) => line.includes(goneNumber)), 'the ID number is never logged')
  await world.assertLedger()
})

test('migration 0027 gives earlier withdrawals the payee of the ID card and profile that remain', async () => {
  const world = await walletWorld()
  await world.setLimits({ reviewAboveFen: 10_000_000 })
  const stays = await walletExpert(world, '李专家')
  const gone = await walletExpert(world, '王离职')
  await creditIncome(world, stays.user.id, 200_000)
  await creditIncome(world, gone.user.id, 100_000)
  const stayed = await withdrawToTheEnd(world, stays, '2000')
  const left = await withdrawToTheEnd(world, gone, '1000')
  assert.deepEqual([stayed.state, left.state], ['paid', 'paid'])
  const card = await world.app.db
    .selectFrom('id_cards')
    .select(['holder_encrypted', 'number_encrypted'])
    .where('user_id', '=', stays.user.id)
    .executeTakeFirstOrThrow()

  // As the database was before 0027, with one of the experts deleted meanwhile, then 0027 again.
  const db = world.app.db
  await withdrawalPayee.down!(db)
  await deleteAccount(world, gone)
  await withdrawalPayee.up(db)

  const payees = await db
    .selectFrom('withdrawals')
    .select(['id', 'payee_name_encrypted', 'payee_id_number_encrypted', 'payee_hospital_name'])
    .where('id', 'in', [stayed.id, left.id])
    .execute()
  assert.deepEqual(Object.fromEntries(payees.map(({ id, ...payee }) => [id, payee])), {
    [stayed.id]: {
      payee_name_encrypted: card.holder_encrypted,
      payee_id_number_encrypted: card.number_encrypted,
      payee_hospital_name: '会诊测试医院',
    },
    // Deleted before 0027: nothing was left to copy.
    [left.id]: {
      payee_name_encrypted: null,
      payee_id_number_encrypted: null,
      payee_hospital_name: null,
    },
  })
  assert.equal(
    world.app.personalCipher.decrypt(payees.find((p) => p.id === stayed.id)!.payee_name_encrypted!),
    '李专家',
  )
  await world.assertLedger()
})
