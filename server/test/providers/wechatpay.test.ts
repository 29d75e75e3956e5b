// test-server: no database
import assert from 'node:assert/strict'
import { createVerify, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test, type TestContext } from 'node:test'
import type { WechatPayConfig } from '../../src/config'
import {
  PAYMENT_UNAVAILABLE,
  type PaymentLog,
  PaymentNotificationRejected,
  type PaymentProvider,
  PaymentProviderUnavailable,
  PaymentRequestRefused,
  type PrepayInput,
  type RawNotification,
  wechatPayProvider,
} from '../../src/providers/payments'
import {
  startTestMerchant,
  strangerKeys,
  TEST_APPID,
  testMerchantKeys,
  type WechatPayStandin,
} from '../support/wechatpay-standin'

/*
 * The WeChat Pay APIv3 adapter against the stand-in (test/support/wechatpay-standin.ts), which
 * checks our request signatures, signs its answers and notifications with its own platform key and
 * encrypts notification resources with the APIv3 key, as WeChat does.
 */

const merchant = testMerchantKeys()
const stranger = strangerKeys()

interface LogLine {
  level: string
  fields: Record<string, unknown>
  message: string
}

function recordingLog(): { log: PaymentLog; lines: LogLine[] } {
  const lines: LogLine[] = []
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message: string): void => {
      lines.push({ level, fields, message })
    }
  return { log: { info: at('info'), warn: at('warn'), error: at('error') } as PaymentLog, lines }
}

interface World {
  standin: WechatPayStandin
  config: WechatPayConfig
  provider: PaymentProvider
  lines: LogLine[]
  /** Another adapter on the same merchant, with some settings changed. */
  variant(changes: Partial<WechatPayConfig>, timeoutMs?: number): PaymentProvider
}

async function world(t: TestContext, timeoutMs = 2_000): Promise<World> {
  const { standin, config } = await startTestMerchant()
  t.after(() => standin.stop())
  const { log, lines } = recordingLog()
  return {
    standin,
    config,
    provider: wechatPayProvider(config, { log, timeoutMs }),
    lines,
    variant: (changes, ms = timeoutMs) =>
      wechatPayProvider({ ...config, ...changes }, { log, timeoutMs: ms }),
  }
}

function anOrder(changes: Partial<PrepayInput> = {}): PrepayInput {
  return {
    outTradeNo: `C${randomBytes(8).toString('hex')}`,
    description: '图文咨询-张医生',
    amountFen: 7200,
    payerOpenid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o',
    expiresAt: new Date(Date.now() + 15 * 60_000),
    notifyUrl: 'https://yx.example.cn/main/payments/wechatpay/notify',
    ...changes,
  }
}

const isUnavailable = (error: unknown) =>
  error instanceof PaymentProviderUnavailable && error.message === PAYMENT_UNAVAILABLE
const isRejected = (error: unknown) => error instanceof PaymentNotificationRejected
const refusedWith = (code: string) => (error: unknown) =>
  error instanceof PaymentRequestRefused && error.code === code

test('prepay: the stand-in accepts our signature and the requestPayment params verify with the merchant key', async (t) => {
  const w = await world(t)
  const input = anOrder()
  const result = await w.provider.prepay(input)
  assert.equal(result.kind, 'jsapi')
  if (result.kind !== 'jsapi') return
  const { params } = result
  const order = w.standin.orders.get(input.outTradeNo)!
  assert.equal(params.appId, TEST_APPID)
  assert.equal(params.package, `prepay_id=${order.prepay_id}`)
  assert.equal(params.signType, 'RSA')
  assert.match(params.timeStamp, /^\d{10}$/)
  const message = `${params.appId}\n${params.timeStamp}\n${params.nonceStr}\n${params.package}\n`
  const verified = createVerify('RSA-SHA256')
    .update(message)
    .verify(merchant.publicKey, params.paySign, 'base64')
  assert.ok(verified, 'paySign verifies with the merchant public key')
  // What WeChat was told: amount in fen, our notify URL, time_expire in Beijing time.
  assert.equal(order.total, 7200)
  assert.equal(order.description, '图文咨询-张医生')
  assert.equal(order.notify_url, input.notifyUrl)
  assert.match(order.time_expire, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/)
  assert.equal(
    new Date(order.time_expire).getTime(),
    Math.floor(input.expiresAt.getTime() / 1000) * 1000,
  )

  // Again for the same order: the same prepay_id, freshly signed.
  const again = await w.provider.prepay(input)
  assert.ok(again.kind === 'jsapi' && again.params.package === params.package)
})

test('the stand-in refuses a request signed with the wrong key (401 SIGN_ERROR), and the code is logged', async (t) => {
  const w = await world(t)
  const forger = w.variant({ privateKey: stranger.privateKey })
  await assert.rejects(
    forger.prepay(anOrder()),
    (error: unknown) =>
      refusedWith('SIGN_ERROR')(error) &&
      (error as PaymentRequestRefused).status === 401 &&
      (error as Error).message === PAYMENT_UNAVAILABLE,
  )
  assert.equal(w.standin.calls.at(-1)?.status, 401)
  assert.equal(w.standin.orders.size, 0)
  assert.ok(w.lines.some((line) => line.fields.code === 'SIGN_ERROR' && line.level === 'warn'))
  // Another merchant serial is refused too.
  await assert.rejects(
    w.variant({ merchantSerial: 'ABCDEF0123' }).prepay(anOrder()),
    refusedWith('SIGN_ERROR'),
  )
})

test('no openid: JSAPI cannot be paid, and WeChat is not asked', async (t) => {
  const w = await world(t)
  await assert.rejects(
    w.provider.prepay(anOrder({ payerOpenid: null })),
    refusedWith('PAYER_OPENID_MISSING'),
  )
  assert.equal(w.standin.calls.length, 0)
})

test('query: unknown order → null, unpaid → NOTPAY, paid → SUCCESS with the transaction id', async (t) => {
  const w = await world(t)
  const input = anOrder()
  assert.equal(await w.provider.queryPayment(input.outTradeNo), null)
  await w.provider.prepay(input)
  assert.deepEqual(await w.provider.queryPayment(input.outTradeNo), {
    outTradeNo: input.outTradeNo,
    transactionId: null,
    state: 'NOTPAY',
    amountFen: 7200,
    paidAt: null,
  })
  w.standin.pay(input.outTradeNo)
  const paid = await w.provider.queryPayment(input.outTradeNo)
  const order = w.standin.orders.get(input.outTradeNo)!
  assert.equal(paid?.state, 'SUCCESS')
  assert.equal(paid?.transactionId, order.transaction_id)
  assert.equal(paid?.amountFen, 7200)
  assert.equal(paid?.paidAt, new Date(order.success_time!).toISOString())
  // Paying again is refused with a text a person may read.
  await assert.rejects(w.provider.prepay(input), (error: unknown) => {
    return (
      refusedWith('ORDERPAID')(error) && (error as Error).message === '订单已支付，请勿重复付款'
    )
  })
})

test('close: an unpaid order closes; a paid one cannot', async (t) => {
  const w = await world(t)
  const unpaid = anOrder()
  await w.provider.prepay(unpaid)
  await w.provider.closeOrder(unpaid.outTradeNo)
  assert.equal((await w.provider.queryPayment(unpaid.outTradeNo))?.state, 'CLOSED')
  assert.equal(w.standin.calls.at(-2)?.status, 204)

  const paid = anOrder()
  await w.provider.prepay(paid)
  w.standin.pay(paid.outTradeNo)
  await assert.rejects(w.provider.closeOrder(paid.outTradeNo), refusedWith('ORDERPAID'))
})

test('refund: accepted as PROCESSING, a retry is the same refund, the query and the notification say SUCCESS', async (t) => {
  const w = await world(t)
  const input = anOrder()
  await w.provider.prepay(input)
  w.standin.pay(input.outTradeNo)
  const ask = {
    outTradeNo: input.outTradeNo,
    outRefundNo: `R${randomBytes(8).toString('hex')}`,
    refundFen: 3000,
    totalFen: 7200,
    reason: '专家未接诊',
    notifyUrl: 'https://yx.example.cn/main/payments/wechatpay/refund-notify',
  }
  assert.equal(await w.provider.queryRefund(ask.outRefundNo), null)
  const accepted = await w.provider.refund(ask)
  assert.equal(accepted.state, 'PROCESSING')
  assert.equal(accepted.refundFen, 3000)
  assert.equal(accepted.succeededAt, null)
  assert.match(accepted.refundId ?? '', /^\d{29}$/)
  assert.equal(w.standin.refunds.get(ask.outRefundNo)?.notify_url, ask.notifyUrl)
  assert.deepEqual(await w.provider.refund(ask), accepted, 'a retry with the same number')
  assert.deepEqual(await w.provider.queryRefund(ask.outRefundNo), accepted)

  const notification = w.standin.completeRefund(ask.outRefundNo)
  const notified = await w.provider.parseRefundNotification(notification)
  const queried = await w.provider.queryRefund(ask.outRefundNo)
  assert.equal(notified.state, 'SUCCESS')
  assert.ok(notified.succeededAt)
  assert.deepEqual(queried, notified)
  assert.deepEqual(
    {
      outRefundNo: notified.outRefundNo,
      outTradeNo: notified.outTradeNo,
      refundId: notified.refundId,
    },
    { outRefundNo: ask.outRefundNo, outTradeNo: input.outTradeNo, refundId: accepted.refundId },
  )

  // More than is left: refused by WeChat, the code kept for the domain.
  await assert.rejects(
    w.provider.refund({
      ...ask,
      outRefundNo: `R${randomBytes(8).toString('hex')}`,
      refundFen: 5000,
    }),
    refusedWith('INVALID_REQUEST'),
  )
})

test('a real notification, posted to our URL, is verified and decrypted; its duplicate reads the same', async (t) => {
  const w = await world(t)
  const input = anOrder()
  await w.provider.prepay(input)
  const received: unknown[] = []
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const notification: RawNotification = {
        headers: req.headers as Record<string, string>,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      }
      w.provider.parsePaymentNotification(notification).then(
        (result) => {
          received.push(result)
          res.writeHead(204).end()
        },
        () => res.writeHead(401).end(),
      )
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  t.after(() => new Promise((resolve) => receiver.close(resolve)))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notify`

  const notification = w.standin.pay(input.outTradeNo)
  // WeChat's envelope, exactly.
  const envelope = JSON.parse(notification.rawBody)
  assert.deepEqual(Object.keys(envelope).sort(), [
    'create_time',
    'event_type',
    'id',
    'resource',
    'resource_type',
    'summary',
  ])
  assert.equal(envelope.event_type, 'TRANSACTION.SUCCESS')
  assert.equal(envelope.resource_type, 'encrypt-resource')
  assert.deepEqual(Object.keys(envelope.resource).sort(), [
    'algorithm',
    'associated_data',
    'ciphertext',
    'nonce',
    'original_type',
  ])
  assert.equal(envelope.resource.nonce.length, 12)

  assert.deepEqual(await w.standin.deliver(url, notification, 2), [204, 204])
  const order = w.standin.orders.get(input.outTradeNo)!
  const expected = {
    outTradeNo: input.outTradeNo,
    transactionId: order.transaction_id,
    state: 'SUCCESS',
    amountFen: 7200,
    paidAt: new Date(order.success_time!).toISOString(),
  }
  assert.deepEqual(received, [expected, expected])

  // A forged one gets a 401 at the same URL and changes nothing.
  const forged = w.standin.pay(input.outTradeNo, { signWith: stranger.privateKey })
  assert.deepEqual(await w.standin.deliver(url, forged), [401])
  assert.equal(received.length, 2)
})

test('notifications that fail a check are rejected: signature, serial, timestamp, ciphertext, merchant, kind', async (t) => {
  const w = await world(t)
  const input = anOrder()
  await w.provider.prepay(input)
  const parse = (notification: RawNotification) => w.provider.parsePaymentNotification(notification)
  const staleSeconds = Math.floor(Date.now() / 1000) - 6 * 60
  const futureSeconds = Math.floor(Date.now() / 1000) + 6 * 60

  await assert.rejects(
    parse(w.standin.pay(input.outTradeNo, { signWith: stranger.privateKey })),
    isRejected,
  )
  await assert.rejects(
    parse(
      w.standin.pay(input.outTradeNo, { serial: 'PUB_KEY_ID_0116000000000000000000000000000999' }),
    ),
    isRejected,
  )
  await assert.rejects(
    parse(w.standin.pay(input.outTradeNo, { timestamp: staleSeconds })),
    isRejected,
  )
  await assert.rejects(
    parse(w.standin.pay(input.outTradeNo, { timestamp: futureSeconds })),
    isRejected,
  )
  await assert.rejects(
    parse(w.standin.pay(input.outTradeNo, { tamperCiphertext: true })),
    isRejected,
  )
  await assert.rejects(
    parse(w.standin.pay(input.outTradeNo, { resource: { mchid: '1900000999' } })),
    isRejected,
  )
  await assert.rejects(
    parse(w.standin.pay(input.outTradeNo, { resource: { appid: 'wx0000000000000000' } })),
    isRejected,
  )
  // The body changed after signing (an amount edited in transit).
  const genuine = w.standin.pay(input.outTradeNo)
  await assert.rejects(
    parse({
      ...genuine,
      rawBody: genuine.rawBody.replace('"summary":"支付成功"', '"summary":"x"'),
    }),
    isRejected,
  )
  // Headers missing.
  await assert.rejects(parse({ headers: {}, rawBody: genuine.rawBody }), isRejected)
  // A valid notification of another kind: a refund's is not a payment's.
  const refundNo = `R${randomBytes(8).toString('hex')}`
  await w.provider.refund({
    outTradeNo: input.outTradeNo,
    outRefundNo: refundNo,
    refundFen: 100,
    totalFen: 7200,
    reason: '测试',
    notifyUrl: null,
  })
  await assert.rejects(parse(w.standin.completeRefund(refundNo)), isRejected)
  await assert.rejects(w.provider.parseRefundNotification(genuine), isRejected)
  await assert.rejects(
    w.provider.parseRefundNotification(
      w.standin.completeRefund(refundNo, 'SUCCESS', { resource: { mchid: '1900000999' } }),
    ),
    isRejected,
  )
  await assert.rejects(
    w.provider.parseRefundNotification(
      w.standin.completeRefund(refundNo, 'SUCCESS', { tamperCiphertext: true }),
    ),
    isRejected,
  )
  // And the genuine one still passes.
  assert.equal((await parse(genuine)).state, 'SUCCESS')
})

test('500 and a hanging answer are PaymentProviderUnavailable; the next call works', async (t) => {
  const w = await world(t, 300)
  const input = anOrder()
  w.standin.failNext('error500', 2)
  await assert.rejects(w.provider.prepay(input), isUnavailable)
  await assert.rejects(w.provider.queryPayment(input.outTradeNo), isUnavailable)
  assert.equal((await w.provider.prepay(input)).kind, 'jsapi')

  w.standin.failNext('hang')
  const started = Date.now()
  await assert.rejects(w.provider.queryPayment(input.outTradeNo), isUnavailable)
  assert.ok(Date.now() - started < 2_000, 'gave up at the timeout')
  assert.equal(w.standin.calls.at(-1)?.status, 'hang')
  assert.equal((await w.provider.queryPayment(input.outTradeNo))?.state, 'NOTPAY')
  assert.ok(w.lines.some((line) => line.fields.reason === 'TimeoutError'))
})

test('nobody listening is PaymentProviderUnavailable', async (t) => {
  const w = await world(t)
  const port = Number(new URL(w.standin.baseUrl).port)
  await w.standin.stop()
  const gone = w.variant({ baseUrl: `http://127.0.0.1:${port}` })
  await assert.rejects(gone.queryPayment('C0000000001'), isUnavailable)
})

test('an answer whose signature is wrong, or names an unknown key, is not believed', async (t) => {
  const w = await world(t)
  const input = anOrder()
  w.standin.failNext('badSignature')
  await assert.rejects(w.provider.prepay(input), isUnavailable)
  // WeChat did create the order; only the answer was not believed, so a retry gets the same one.
  assert.equal(w.standin.orders.size, 1)
  w.standin.failNext('wrongSerial')
  await assert.rejects(w.provider.queryPayment(input.outTradeNo), isUnavailable)
  // A 404 is believed only when signed: a forged "no such order" is not a null.
  w.standin.failNext('badSignature')
  await assert.rejects(w.provider.queryPayment('C0000000404'), isUnavailable)
  // Our own platform key is not the one WeChat signs with: nothing it says is believed.
  const wrongKey = w.variant({ platformPublicKey: stranger.publicKey })
  await assert.rejects(wrongKey.queryPayment(input.outTradeNo), isUnavailable)
  assert.ok(
    w.lines.some((line) => line.level === 'error' && line.fields.problem === 'signature mismatch'),
  )
})
