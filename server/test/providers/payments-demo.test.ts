// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  DEMO_SIGNATURE_HEADER,
  demoPaymentProvider,
  isDemoPaymentProvider,
  PAYMENT_NOT_CONFIGURED,
  PaymentNotConfigured,
  PaymentNotificationRejected,
  type PrepayInput,
  type RawNotification,
  unconfiguredPaymentProvider,
} from '../../src/providers/payments'

/*
 * 演示支付: a signed token instead of a payment page, HMAC-signed notifications the same settlement
 * code reads, refunds that succeed at once. No money moves; nothing leaves the process.
 */

const SECRET = Buffer.alloc(32, 9)
const NOW = new Date('2025-06-08T02:00:00.000Z')

function order(changes: Partial<PrepayInput> = {}): PrepayInput {
  return {
    outTradeNo: 'C20250608000001',
    description: '图文咨询-张医生',
    amountFen: 7200,
    payerOpenid: null,
    expiresAt: new Date(NOW.getTime() + 15 * 60_000),
    notifyUrl: 'https://yx.example.cn/unused',
    ...changes,
  }
}

const isRejected = (error: unknown) => error instanceof PaymentNotificationRejected

test('prepay gives a token naming the order, its amount and expiry; a changed or stale token reads null', async () => {
  let now = NOW
  const demo = demoPaymentProvider(SECRET, () => now)
  assert.equal(demo.name, 'demo')
  assert.equal(demo.configured, true)
  assert.ok(isDemoPaymentProvider(demo))
  assert.ok(!isDemoPaymentProvider(unconfiguredPaymentProvider))
  const result = await demo.prepay(order())
  assert.equal(result.kind, 'demo')
  if (result.kind !== 'demo') return
  assert.deepEqual(demo.readToken(result.token), {
    outTradeNo: 'C20250608000001',
    amountFen: 7200,
    expiresAt: new Date(NOW.getTime() + 15 * 60_000),
  })
  // Another amount, another order, another secret, garbage: null.
  assert.equal(demo.readToken(result.token.replace('.7200.', '.1.')), null)
  assert.equal(demo.readToken(result.token.replace('C20250608000001', 'C20250608000002')), null)
  assert.equal(demoPaymentProvider(Buffer.alloc(32, 1), () => now).readToken(result.token), null)
  assert.equal(demo.readToken('not-a-token'), null)
  // Expired.
  now = new Date(NOW.getTime() + 16 * 60_000)
  assert.equal(demo.readToken(result.token), null)
})

test('a demo notification round-trips; tampered, unsigned, another secret or another kind is rejected', async () => {
  const demo = demoPaymentProvider(SECRET, () => NOW)
  const notification = demo.demoNotification('C20250608000001', 7200, 'demo-tx-1')
  assert.deepEqual(await demo.parsePaymentNotification(notification), {
    outTradeNo: 'C20250608000001',
    transactionId: 'demo-tx-1',
    state: 'SUCCESS',
    amountFen: 7200,
    paidAt: NOW.toISOString(),
  })
  // Duplicates are normal and read the same.
  assert.equal((await demo.parsePaymentNotification(notification)).amountFen, 7200)

  const tampered: RawNotification = {
    ...notification,
    rawBody: notification.rawBody.replace('7200', '1'),
  }
  await assert.rejects(demo.parsePaymentNotification(tampered), isRejected)
  await assert.rejects(
    demo.parsePaymentNotification({ headers: {}, rawBody: notification.rawBody }),
    isRejected,
  )
  await assert.rejects(
    demo.parsePaymentNotification({
      ...notification,
      headers: { [DEMO_SIGNATURE_HEADER]: 'x'.repeat(43) },
    }),
    isRejected,
  )
  const other = demoPaymentProvider(Buffer.alloc(32, 1), () => NOW)
  await assert.rejects(other.parsePaymentNotification(notification), isRejected)
  await assert.rejects(demo.parseRefundNotification(notification), isRejected)
})

test('demo refunds succeed at once and their notification round-trips; queries answer null', async () => {
  const demo = demoPaymentProvider(SECRET, () => NOW)
  const refund = await demo.refund({
    outTradeNo: 'C20250608000001',
    outRefundNo: 'R20250608000001',
    refundFen: 3000,
    totalFen: 7200,
    reason: '专家未接诊',
    notifyUrl: null,
  })
  assert.equal(refund.state, 'SUCCESS')
  assert.equal(refund.refundFen, 3000)
  assert.equal(refund.succeededAt, NOW.toISOString())
  assert.match(refund.refundId ?? '', /^demo-/)
  // The same refund number is the same refund.
  assert.deepEqual(
    await demo.refund({
      outTradeNo: 'C20250608000001',
      outRefundNo: 'R20250608000001',
      refundFen: 3000,
      totalFen: 7200,
      reason: '专家未接诊',
      notifyUrl: null,
    }),
    refund,
  )
  const notification = demo.demoRefundNotification(refund)
  assert.deepEqual(await demo.parseRefundNotification(notification), refund)
  await assert.rejects(demo.parsePaymentNotification(notification), isRejected)
  await assert.rejects(
    demo.parseRefundNotification({
      ...notification,
      rawBody: notification.rawBody.replace('3000', '7200'),
    }),
    isRejected,
  )
  assert.equal(await demo.queryPayment('C20250608000001'), null)
  assert.equal(await demo.queryRefund('R20250608000001'), null)
  await demo.closeOrder('C20250608000001')
})

test('unconfigured: every call throws 支付未配置', async () => {
  const provider = unconfiguredPaymentProvider
  assert.equal(provider.name, 'unconfigured')
  assert.equal(provider.configured, false)
  const notConfigured = (error: unknown) =>
    error instanceof PaymentNotConfigured && error.message === PAYMENT_NOT_CONFIGURED
  const raw = { headers: {}, rawBody: '{}' }
  await assert.rejects(provider.prepay(order()), notConfigured)
  await assert.rejects(provider.queryPayment('C1'), notConfigured)
  await assert.rejects(provider.closeOrder('C1'), notConfigured)
  await assert.rejects(provider.parsePaymentNotification(raw), notConfigured)
  await assert.rejects(
    provider.refund({
      outTradeNo: 'C1',
      outRefundNo: 'R1',
      refundFen: 1,
      totalFen: 1,
      reason: '',
      notifyUrl: null,
    }),
    notConfigured,
  )
  await assert.rejects(provider.queryRefund('R1'), notConfigured)
  await assert.rejects(provider.parseRefundNotification(raw), notConfigured)
})
