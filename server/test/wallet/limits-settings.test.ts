import assert from 'node:assert/strict'
import { test } from 'node:test'
import { OPERATOR_ACTION_LABELS } from '@contract/main/operator'
import { WALLET_MESSAGES } from '@contract/main/wallet'
import { ROLE_REQUIRED_MESSAGES } from '@contract/sso/auth'
import { patient } from '../consultations/support'
import { creditIncome, walletExpert, walletWorld, withdraw } from './support'

/*
 * 提现限额 in 运营后台 (GET / PUT /main/operator/wallet/limits): an operator reads the defaults and
 * sets new ones, which the next withdrawal meets (the per-transfer limit refuses in its words, the
 * review threshold sends one to 审核) while a withdrawal made before keeps going; a combination
 * that breaks the rules is 400 in Chinese with nothing written; each save is one line of the
 * operators' audit log, in 元; experts, patients and no one reach neither call.
 */

const LIMITS = '/main/operator/wallet/limits'

const DEFAULTS = {
  perTransferFen: 2_000_000,
  perDayFen: 2_000_000,
  platformPerDayFen: 10_000_000,
  reviewAboveFen: 200_000,
}

test('an operator reads the defaults, sets new ones, and new withdrawals meet them; audited', async () => {
  const world = await walletWorld()
  const early = await walletExpert(world, '周专家')
  const doctor = await walletExpert(world)
  await creditIncome(world, early.user.id, 1_000_000)
  await creditIncome(world, doctor.user.id, 1_000_000)

  const read = await world.call(world.operator, 'GET', LIMITS)
  assert.equal(read.status, 200, read.error ?? '')
  assert.deepEqual(read.data, DEFAULTS)

  // Made under the defaults: 2,500 元 waits for 审核.
  const before = await withdraw(world, early, '2500')
  assert.equal(before.status, 200, before.error ?? '')
  assert.equal(before.data.state, 'reviewing')

  const next = {
    perTransferFen: 50_000,
    perDayFen: 80_000,
    platformPerDayFen: 1_000_000,
    reviewAboveFen: 30_000,
  }
  const saved = await world.call(world.operator, 'PUT', LIMITS, next)
  assert.equal(saved.status, 200, saved.error ?? '')
  assert.deepEqual(saved.data, next)
  assert.deepEqual((await world.call(world.operator, 'GET', LIMITS)).data, next)
  const overview = await world.call(doctor, 'GET', '/main/wallet')
  assert.equal(overview.data.limits.perTransferFen, 50_000)
  assert.equal(overview.data.limits.perDayFen, 80_000)
  assert.equal(overview.data.limits.reviewAboveFen, 30_000)

  // New withdrawals meet the new limits.
  const quoteOver = await world.call(doctor, 'GET', '/main/wallet/withdrawals/quote?amount=500.01')
  assert.equal(quoteOver.data.refused, WALLET_MESSAGES.overPerTransfer)
  const over = await withdraw(world, doctor, '500.01')
  assert.equal(over.status, 400)
  assert.equal(over.error, WALLET_MESSAGES.overPerTransfer)
  const quoteReview = await world.call(
    doctor,
    'GET',
    '/main/wallet/withdrawals/quote?amount=300.01',
  )
  assert.equal(quoteReview.data.needsReview, true)
  const reviewed = await withdraw(world, doctor, '300.01')
  assert.equal(reviewed.status, 200, reviewed.error ?? '')
  assert.equal(reviewed.data.state, 'reviewing')
  const cancelled = await world.call(
    doctor,
    'POST',
    `/main/wallet/withdrawals/${reviewed.data.id}/cancel`,
  )
  assert.equal(cancelled.data.state, 'cancelled')
  const straight = await withdraw(world, doctor, '300')
  assert.equal(straight.status, 200, straight.error ?? '')
  assert.equal(straight.data.state, 'paying')

  // The one made before is not touched: it still waits, and 通过 pays its 2,500 元.
  const approved = await world.call(
    world.operator,
    'POST',
    `/main/operator/withdrawals/${before.data.id}/decision`,
    { approve: true },
  )
  assert.equal(approved.status, 200, approved.error ?? '')
  assert.equal(approved.data.state, 'paying')
  assert.equal(approved.data.grossFen, 250_000)

  // A review threshold above the per-transfer limit: allowed, and then nothing waits for 审核.
  const noReview = { ...next, reviewAboveFen: 100_000 }
  world.clock.advance(1_000)
  const savedNoReview = await world.call(world.operator, 'PUT', LIMITS, noReview)
  assert.equal(savedNoReview.status, 200, savedNoReview.error ?? '')
  assert.deepEqual(savedNoReview.data, noReview)
  const quoteTop = await world.call(doctor, 'GET', '/main/wallet/withdrawals/quote?amount=500')
  assert.equal(quoteTop.data.needsReview, false)

  // Each save is one line of the audit log, its four values in 元.
  const log = await world.call(world.operator, 'GET', '/main/operator/actions')
  assert.equal(log.status, 200, log.error ?? '')
  const lines = (
    log.data.items as { action: string; label: string; targetId: string; detail: string }[]
  ).filter((item) => item.action === 'wallet-limits-set')
  assert.deepEqual(
    lines.map((item) => [item.label, item.targetId, item.detail]),
    [
      [
        OPERATOR_ACTION_LABELS['wallet-limits-set'],
        'wallet-limits',
        '单笔 500.00 元，每人每日 800.00 元，平台每日 10000.00 元，审核门槛 1000.00 元',
      ],
      [
        OPERATOR_ACTION_LABELS['wallet-limits-set'],
        'wallet-limits',
        '单笔 500.00 元，每人每日 800.00 元，平台每日 10000.00 元，审核门槛 300.00 元',
      ],
    ],
  )
  const row = await world.app.db
    .selectFrom('app_settings')
    .select('updated_by')
    .where('key', '=', 'wallet-limits')
    .executeTakeFirstOrThrow()
  assert.equal(row.updated_by, world.operator.user.id)
  await world.assertLedger()
})

test('a combination that breaks the rules is 400 in Chinese, and nothing is written', async () => {
  const world = await walletWorld()
  const good = {
    perTransferFen: 100_000,
    perDayFen: 500_000,
    platformPerDayFen: 5_000_000,
    reviewAboveFen: 50_000,
  }
  assert.equal((await world.call(world.operator, 'PUT', LIMITS, good)).status, 200)
  const stored = () =>
    world.app.db
      .selectFrom('app_settings')
      .selectAll()
      .where('key', '=', 'wallet-limits')
      .executeTakeFirstOrThrow()
  const audited = async () =>
    (await world.app.db.selectFrom('operator_actions').select('id').execute()).length
  const storedBefore = await stored()
  const auditedBefore = await audited()
  world.clock.advance(60_000)

  const cases: [string, Record<string, unknown>, string][] = [
    [
      'per transfer above per day',
      { ...good, perTransferFen: 500_001 },
      WALLET_MESSAGES.limitPerTransferOverDay,
    ],
    [
      'per day above the platform',
      { ...good, perDayFen: 2_000_000, platformPerDayFen: 1_999_999 },
      WALLET_MESSAGES.limitPerDayOverPlatform,
    ],
    [
      'per day above WeChat’s 20,000 元',
      { ...good, perDayFen: 2_000_001 },
      WALLET_MESSAGES.limitPerDayWechat,
    ],
    ['under ¥1', { ...good, reviewAboveFen: 99 }, WALLET_MESSAGES.limitReviewAbove],
    ['zero', { ...good, perTransferFen: 0 }, WALLET_MESSAGES.limitPerTransfer],
    ['negative', { ...good, platformPerDayFen: -100 }, WALLET_MESSAGES.limitPlatformPerDay],
    ['a fraction of a fen', { ...good, perTransferFen: 100.5 }, WALLET_MESSAGES.limitPerTransfer],
    [
      'not a safe integer',
      { ...good, platformPerDayFen: 2 ** 53 },
      WALLET_MESSAGES.limitPlatformPerDay,
    ],
    ['yuan as text', { ...good, perDayFen: '5000' }, WALLET_MESSAGES.limitPerDay],
    [
      'missing',
      { perTransferFen: 100_000, perDayFen: 500_000, platformPerDayFen: 5_000_000 },
      WALLET_MESSAGES.limitReviewAbove,
    ],
  ]
  for (const [what, body, message] of cases) {
    const res = await world.call(world.operator, 'PUT', LIMITS, body)
    assert.equal(res.status, 400, what)
    assert.equal(res.error, message, what)
  }
  assert.deepEqual(await stored(), storedBefore, 'the setting is unchanged')
  assert.equal(await audited(), auditedBefore, 'no audit line')
  assert.deepEqual((await world.call(world.operator, 'GET', LIMITS)).data, good)

  // At the edges: all equal, per day exactly WeChat's 20,000 元, each ¥1.
  for (const edge of [
    {
      perTransferFen: 2_000_000,
      perDayFen: 2_000_000,
      platformPerDayFen: 2_000_000,
      reviewAboveFen: 2_000_000,
    },
    { perTransferFen: 100, perDayFen: 100, platformPerDayFen: 100, reviewAboveFen: 100 },
  ]) {
    const res = await world.call(world.operator, 'PUT', LIMITS, edge)
    assert.equal(res.status, 200, res.error ?? '')
    assert.deepEqual(res.data, edge)
  }
})

test('experts, patients and no one reach neither call; nothing changes', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  const someone = await patient(world, '赵路人')
  const body = { ...DEFAULTS, perTransferFen: 100 }
  for (const caller of [doctor, someone]) {
    const read = await world.call(caller, 'GET', LIMITS)
    assert.equal(read.status, 403)
    assert.equal(read.error, ROLE_REQUIRED_MESSAGES.operator)
    const write = await world.call(caller, 'PUT', LIMITS, body)
    assert.equal(write.status, 403)
    assert.equal(write.error, ROLE_REQUIRED_MESSAGES.operator)
    // The role is checked before the input is read: a bad body learns nothing more.
    assert.equal((await world.call(caller, 'PUT', LIMITS, { perDayFen: 'x' })).status, 403)
  }
  assert.equal((await world.call(null, 'GET', LIMITS)).status, 401)
  assert.equal((await world.call(null, 'PUT', LIMITS, body)).status, 401)
  assert.deepEqual((await world.call(world.operator, 'GET', LIMITS)).data, DEFAULTS)
  const audited = await world.app.db
    .selectFrom('operator_actions')
    .select('id')
    .where('action', '=', 'wallet-limits-set')
    .execute()
  assert.equal(audited.length, 0)
})
