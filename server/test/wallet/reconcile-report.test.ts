import assert from 'node:assert/strict'
import { test } from 'node:test'
import { checkLedger } from '../../src/domain/ledger'
import { csvField, quarterRange } from '../../src/domain/wallet/income-report'
import type { DemoTransferProvider } from '../../src/providers/transfers'
import { INCOME_REPORT_PATH } from '../../src/routes/main/wallet'
import { creditIncome, walletExpert, walletWorld, withdrawToTheEnd } from './support'

/*
 * 对账 and the quarterly income report. The demo provider's daily statement is compared with our
 * withdrawals: none differ after a paid and a failed one; a bill only the provider has and a paid
 * withdrawal the provider lost are listed (days with differences first), `ledger:check` reports
 * them, and a run after the fix clears them. The income report is a CSV for operators only, one
 * line per expert with the full identity the tax report needs, audited.
 */

test('对账: no difference when both sides agree; differences listed, reported by ledger:check, cleared by a new run', async () => {
  const world = await walletWorld()
  const doctor = await walletExpert(world)
  await creditIncome(world, doctor.user.id, 100_000)
  const paid = await withdrawToTheEnd(world, doctor, '100')
  assert.equal(paid.state, 'paid')
  const failed = await withdrawToTheEnd(world, doctor, '20.44')
  assert.equal(failed.state, 'failed')
  const day = '2030-06-01' // the test clock's China day (16:00 there)

  const clean = await world.call(world.operator, 'POST', '/main/operator/wallet/reconciliation', {
    date: day,
  })
  assert.equal(clean.status, 200, clean.error ?? '')
  assert.equal(clean.data.providerCount, 2)
  assert.equal(clean.data.ledgerCount, 2)
  assert.deepEqual(clean.data.differences, [])
  await world.assertLedger()

  // A bill only the provider has, and a paid withdrawal the provider's statement lacks.
  const demo = world.app.providers.transfers as DemoTransferProvider
  await demo.createTransfer({
    outBillNo: 'STRANGER0000000001',
    amountFen: 500,
    openid: null,
    realName: '某人',
    remark: 'x',
    notifyUrl: null,
    report: { role: 'x', description: 'x' },
  })
  const lost = await world.app.db
    .selectFrom('demo_transfer_bills')
    .selectAll()
    .where('out_bill_no', '=', paid.billNo)
    .executeTakeFirstOrThrow()
  await world.app.db
    .deleteFrom('demo_transfer_bills')
    .where('out_bill_no', '=', paid.billNo)
    .execute()
  const found = await world.call(world.operator, 'POST', '/main/operator/wallet/reconciliation', {
    date: day,
  })
  assert.deepEqual(
    (found.data.differences as { outBillNo: string; problem: string }[])
      .map((d) => [d.outBillNo, d.problem])
      .sort(),
    [
      ['STRANGER0000000001', 'missing-in-ledger'],
      [paid.billNo, 'missing-at-provider'],
    ].sort(),
  )
  const quiet = await world.call(world.operator, 'POST', '/main/operator/wallet/reconciliation', {
    date: '2030-05-31',
  })
  assert.deepEqual(quiet.data.differences, [])
  const listed = await world.call(world.operator, 'GET', '/main/operator/wallet/reconciliation')
  assert.deepEqual(
    listed.data.items.map((item: { date: string }) => item.date),
    [day, '2030-05-31'],
    'days with differences first',
  )
  const check = await checkLedger(world.app.db, world.clock.now())
  assert.equal(check.ok, false)
  assert.equal(check.problems.filter((p) => p.startsWith(`对账 ${day}`)).length, 2)
  const ops = await world.call(world.operator, 'POST', '/main/operator/money/check', {})
  assert.equal(ops.status, 200, ops.error ?? '')
  assert.equal(ops.data.ok, false, 'the operators’ 立即核对 reports them too')

  // Repaired on the provider's side (the lost bill back, the stranger gone), a new run is clean.
  await world.app.db.insertInto('demo_transfer_bills').values(lost).execute()
  await world.app.db
    .deleteFrom('demo_transfer_bills')
    .where('out_bill_no', '=', 'STRANGER0000000001')
    .execute()
  const fixed = await world.call(world.operator, 'POST', '/main/operator/wallet/reconciliation', {
    date: day,
  })
  assert.deepEqual(fixed.data.differences, [])
  await world.assertLedger()
  const audit = await world.app.db
    .selectFrom('operator_actions')
    .select(['action', 'target_id'])
    .where('action', '=', 'wallet-reconcile')
    .execute()
  assert.equal(audit.length, 4)
  assert.equal(
    (await world.call(doctor, 'POST', '/main/operator/wallet/reconciliation', { date: day }))
      .status,
    403,
  )
})

test('the quarterly income report: operators only, one line per expert with full identity and figures, audited', async () => {
  const world = await walletWorld()
  await world.setLimits({ reviewAboveFen: 10_000_000 })
  const doctor = await walletExpert(world, '李专家')
  await creditIncome(world, doctor.user.id, 1_234_567)
  const paid = await withdrawToTheEnd(world, doctor, '10000')
  assert.equal(paid.state, 'paid')
  const idNumber = (
    await world.app.db
      .selectFrom('id_cards')
      .select('number_encrypted')
      .where('user_id', '=', doctor.user.id)
      .executeTakeFirstOrThrow()
  ).number_encrypted
  const number = world.app.personalCipher.decrypt(idNumber)

  const res = await world.app.inject({
    method: 'GET',
    url: `${INCOME_REPORT_PATH}?quarter=2030Q2`,
    headers: { authorization: `Bearer ${world.operator.token}` },
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.match(String(res.headers['content-type']), /^text\/csv; charset=utf-8/)
  assert.equal(res.headers['cache-control'], 'no-store')
  assert.match(String(res.headers['content-disposition']), /income-report-2030Q2\.csv/)
  assert.ok(res.body.startsWith('\ufeff'), 'a byte-order mark for spreadsheets')
  const lines = res.body.slice(1).trim().split('\r\n')
  assert.equal(
    lines[0],
    '序号,姓名,证件类型,证件号码,国家或地区,执业机构,收入总额（元）,退款扣回（元）,收入净额（元）,支付金额（元）,代扣个税（元）,实发金额（元）',
  )
  assert.equal(lines.length, 2)
  // 10,000 元 in June: (10,000 × 80% − 5,000) × 3% = 90 元 withheld.
  assert.equal(
    lines[1],
    `1,李专家,居民身份证,${number},中国,会诊测试医院,12345.67,0.00,12345.67,10000.00,90.00,9910.00`,
  )
  // Another quarter: only the header.
  const q1 = await world.app.inject({
    method: 'GET',
    url: `${INCOME_REPORT_PATH}?quarter=2030Q1`,
    headers: { authorization: `Bearer ${world.operator.token}` },
  })
  assert.equal(q1.body.slice(1).trim().split('\r\n').length, 1)
  const bad = await world.app.inject({
    method: 'GET',
    url: `${INCOME_REPORT_PATH}?quarter=2030Q5`,
    headers: { authorization: `Bearer ${world.operator.token}` },
  })
  assert.equal(bad.statusCode, 400)
  const audit = await world.app.db
    .selectFrom('operator_actions')
    .select(['action', 'target_id', 'detail'])
    .where('action', '=', 'income-report-export')
    .orderBy('created_at')
    .execute()
  assert.deepEqual(audit.map((row) => [row.target_id, row.detail]).sort(), [
    ['2030Q1', '0 位专家'],
    ['2030Q2', '1 位专家'],
  ])
  assert.ok(!world.logs.some((line) => line.includes(number)), 'the ID number is never logged')
  await world.assertLedger()
})

test('CSV fields are quoted when needed and never start a spreadsheet formula; quarters are China time', () => {
  assert.equal(csvField('张三'), '张三')
  assert.equal(csvField('a,b'), '"a,b"')
  assert.equal(csvField('say "hi"'), '"say ""hi"""')
  assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`)
  assert.equal(csvField('-1'), "'-1")
  assert.deepEqual(quarterRange('2026Q3'), {
    from: '2026-06-30T16:00:00.000Z',
    to: '2026-09-30T16:00:00.000Z',
  })
})
