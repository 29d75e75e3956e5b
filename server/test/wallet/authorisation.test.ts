import assert from 'node:assert/strict'
import { test } from 'node:test'
import * as walletContract from '@contract/main/wallet'
import { ROLE_REQUIRED_MESSAGES } from '@contract/sso/auth'
import { patient } from '../consultations/support'
import { INCOME_REPORT_PATH } from '../../src/routes/main/wallet'
import {
  balances,
  creditIncome,
  EXPERT_PASSWORD,
  walletExpert,
  walletWorld,
  withdraw,
} from './support'

/*
 * Every wallet operation of the contract, asked about one expert's withdrawal and trade by another
 * expert (404, exactly as for an id that does not exist, so an answer never confirms it exists),
 * by a patient (403 before the input is read: the wallet is for experts) and by no one (401).
 * The operators' calls answer 403 to experts and patients, 401 to no one. Nothing they tried
 * changed the withdrawal or the balances.
 */

test('another expert, a patient and no one reach nothing of an expert’s wallet', async () => {
  const world = await walletWorld()
  const owner = await walletExpert(world)
  await creditIncome(world, owner.user.id, 1_000_000)
  const made = await withdraw(world, owner, '2500')
  assert.equal(made.status, 200, made.error ?? '')
  assert.equal(made.data.state, 'reviewing')
  const trade = (await world.call(owner, 'GET', '/main/wallet/trades')).data.items[0].id as string
  const other = await walletExpert(world, '周专家')
  await creditIncome(world, other.user.id, 100_000)
  const someone = await patient(world, '赵路人')
  const missing = '00000000-0000-4000-8000-000000000000'
  const before = await balances(world, owner)

  const ops = (w: string, t: string) =>
    [
      ['GET', `/main/wallet/trades/${t}`, undefined],
      ['GET', `/main/wallet/withdrawals/${w}`, undefined],
      ['POST', `/main/wallet/withdrawals/${w}/confirm`, {}],
      ['POST', `/main/wallet/withdrawals/${w}/sync`, {}],
      ['POST', `/main/wallet/withdrawals/${w}/cancel`, {}],
    ] as const
  for (const [index, [method, url, body]] of ops(made.data.id, trade).entries()) {
    const [, missingUrl] = ops(missing, missing)[index]!
    const answer = await world.call(other, method, url, body)
    const absent = await world.call(other, method, missingUrl, body)
    assert.equal(answer.status, 404, `${method} ${url} by another expert`)
    assert.equal(answer.status, absent.status, `${method} ${url}: differs from a missing one`)
    assert.equal(answer.error, absent.error, `${method} ${url}: message differs from a missing one`)
    const asPatient = await world.call(someone, method, url, body)
    assert.equal(asPatient.status, 403, `${method} ${url} by a patient`)
    assert.equal(asPatient.error, ROLE_REQUIRED_MESSAGES.expert)
    assert.equal((await world.call(null, method, url, body)).status, 401, `${method} ${url}`)
  }
  // The list calls answer each expert their own only; a patient 403, no one 401.
  const lists = [
    ['GET', '/main/wallet', undefined],
    ['GET', '/main/wallet/trades', undefined],
    ['GET', '/main/wallet/withdrawals', undefined],
    ['GET', '/main/wallet/withdrawals/quote?amount=1', undefined],
    [
      'POST',
      '/main/wallet/withdrawals',
      { amount: '1', clientId: 'client-x-0001', password: EXPERT_PASSWORD },
    ],
  ] as const
  for (const [method, url, body] of lists) {
    assert.equal((await world.call(someone, method, url, body)).status, 403, `${method} ${url}`)
    assert.equal((await world.call(null, method, url, body)).status, 401, `${method} ${url}`)
  }
  const theirs = await world.call(other, 'GET', '/main/wallet/withdrawals')
  assert.equal(theirs.data.total, 0)
  const theirTrades = await world.call(other, 'GET', '/main/wallet/trades')
  assert.ok(
    (theirTrades.data.items as { withdrawalId: string | null }[]).every(
      (t) => t.withdrawalId !== made.data.id,
    ),
  )

  // Operators' calls: 403 to an expert and a patient, 401 to no one (before reading anything).
  const operatorCalls = (Object.values(walletContract) as unknown[])
    .filter(
      (value): value is { method: 'GET' | 'POST' | 'PUT'; path: string; role?: string } =>
        typeof value === 'object' &&
        value !== null &&
        'path' in value &&
        'method' in value &&
        (value as { role?: string }).role === 'operator',
    )
    .map((endpoint) => ({
      method: endpoint.method,
      url: `/main${endpoint.path.replace(/:[A-Za-z]+/g, made.data.id)}`,
    }))
  assert.equal(operatorCalls.length, 6)
  for (const { method, url } of [
    ...operatorCalls,
    { method: 'GET' as const, url: `${INCOME_REPORT_PATH}?quarter=2030Q2` },
  ]) {
    for (const caller of [other, owner, someone]) {
      const res = await world.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${caller.token}` },
        ...(method === 'GET' ? {} : { payload: {} }),
      })
      assert.equal(res.statusCode, 403, `${method} ${url}`)
    }
    const res = await world.app.inject({
      method,
      url,
      ...(method === 'GET' ? {} : { payload: {} }),
    })
    assert.equal(res.statusCode, 401, `${method} ${url}`)
  }

  const after = await world.call(owner, 'GET', `/main/wallet/withdrawals/${made.data.id}`)
  assert.equal(after.data.state, 'reviewing')
  assert.deepEqual(await balances(world, owner), before)
  await world.assertLedger()
})
