import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  type PaymentLog,
  type PaymentProvider,
  type RawNotification,
  wechatPayProvider,
} from '../../src/providers/payments'
import { PAYMENT_NOTIFY_PATH, REFUND_NOTIFY_PATH } from '../../src/routes/main/consultations'
import { closeAfter } from '../helpers'
import {
  startTestMerchant,
  strangerKeys,
  TEST_MCHID,
  type WechatPayStandin,
} from '../support/wechatpay-standin'
import type { TestUser } from '../domain/profile/support'
import { application, type ConsultWorld, consultWorld, expert, patient } from './support'

/*
 * WeChat Pay's notifications through the real notify route, the app's WeChat Pay adapter pointed at
 * the stand-in (test/support/wechatpay-standin.ts), which signs with its own platform key and
 * encrypts with the APIv3 key: 50 identical notifications at once credit once; a forgery or a
 * tampered ciphertext is refused and changes nothing; the pay timer asks WeChat first (paid there:
 * applied, not closed; unpaid: closed at WeChat, then here; paid between the query and the close:
 * applied); a payment that arrives after the pay timer closed the order (WeChat unreachable at the
 * deadline) is credited and refunded in full. SQLite and PostgreSQL alike.
 */

const stranger = strangerKeys()
const quiet: PaymentLog = { info: () => {}, warn: () => {}, error: () => {} } as PaymentLog

async function wechatWorld(
  options: {
    /** Wraps the app's adapter (to act between its calls, as a payer or WeChat would). */
    wrap?: (provider: PaymentProvider, standin: WechatPayStandin) => PaymentProvider
  } = {},
): Promise<{ world: ConsultWorld; standin: WechatPayStandin }> {
  let clock: () => Date = () => new Date()
  const { standin, config } = await startTestMerchant({ now: () => clock() })
  closeAfter(() => standin.stop())
  const world = await consultWorld({
    payments: (now) => {
      const provider = wechatPayProvider(config, { log: quiet, now })
      return options.wrap ? options.wrap(provider, standin) : provider
    },
    config: { publicUrl: 'https://yx.example.test' },
  })
  clock = world.clock.now
  return { world, standin }
}

/** A submitted order with its WeChat prepay made (the stand-in knows it): id and order number. */
async function orderedConsultation(world: ConsultWorld, asker: TestUser, doctor: TestUser) {
  await world.app.db
    .updateTable('users')
    .set({ wechat_openid: `oTest${asker.user.id.replaceAll('-', '').slice(0, 20)}` })
    .where('id', '=', asker.user.id)
    .execute()
  const { input } = await application(world, asker, doctor)
  const created = await world.call(asker, 'POST', '/main/consultations', input)
  assert.equal(created.status, 200, created.error ?? '')
  const id = created.data.id as string
  const pay = await world.call(asker, 'POST', `/main/consultations/${id}/pay`, { client: 'weapp' })
  assert.equal(pay.status, 200, pay.error ?? '')
  assert.equal(pay.data.kind, 'jsapi')
  const { order_no: orderNo } = await world.app.db
    .selectFrom('consultations')
    .select('order_no')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return { id, orderNo }
}

const post = (world: ConsultWorld, url: string, notification: RawNotification) =>
  world.app.inject({
    method: 'POST',
    url,
    headers: {
      ...(notification.headers as Record<string, string>),
      'content-type': 'application/json',
    },
    payload: notification.rawBody,
  })

/** What a notification could have changed about a consultation. */
async function footprint(world: ConsultWorld, id: string) {
  const db = world.app.db
  const row = await db
    .selectFrom('consultations')
    .select(['state', 'paid_at', 'transaction_id', 'pay_by', 'accept_by'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  const transfers = await db
    .selectFrom('ledger_transfers')
    .select(['kind', 'event_key'])
    .where('consultation_id', '=', id)
    .orderBy('created_at')
    .orderBy('kind')
    .execute()
  const events = await db
    .selectFrom('consultation_events')
    .select(['state', 'actor'])
    .where('consultation_id', '=', id)
    .orderBy('at')
    .execute()
  const timers = await db
    .selectFrom('ingest_jobs')
    .select(['kind', 'status', 'run_after'])
    .where('subject_id', '=', id)
    .orderBy('run_after')
    .execute()
  const refunds = await db
    .selectFrom('consultation_refunds')
    .selectAll()
    .where('consultation_id', '=', id)
    .execute()
  return { row, transfers, events, timers, refunds }
}

test('50 identical WeChat Pay notifications at once: all answered 2xx, credited once, waiting-accept once', async () => {
  const { world, standin } = await wechatWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const { id, orderNo } = await orderedConsultation(world, asker, doctor)
  const notification = standin.pay(orderNo)
  const transactionId = standin.orders.get(orderNo)!.transaction_id!

  const answers = await Promise.all(
    Array.from({ length: 50 }, () => post(world, PAYMENT_NOTIFY_PATH, notification)),
  )
  assert.deepEqual(
    [...new Set(answers.map((res) => res.statusCode))],
    [204],
    answers.map((res) => `${res.statusCode} ${res.body}`).join('\n'),
  )

  const after = await footprint(world, id)
  assert.equal(after.row.state, 'waiting-accept')
  assert.equal(after.row.transaction_id, transactionId)
  assert.deepEqual(after.transfers, [
    { kind: 'payment', event_key: `payment:wechatpay:${transactionId}` },
  ])
  assert.equal(after.events.filter((event) => event.state === 'waiting-accept').length, 1)
  // The pay timer, cancelled by the payment, and one accept timer; no second one from a duplicate.
  assert.deepEqual(
    after.timers.map((timer) => [timer.kind, timer.status, timer.run_after]),
    [
      ['consult-timer', 'cancelled', after.row.pay_by],
      ['consult-timer', 'queued', after.row.accept_by],
    ],
  )
  const escrow = await world.app.db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('id', '=', `escrow:${id}`)
    .executeTakeFirstOrThrow()
  assert.equal(Number(escrow.balance), 3000)
  const told = await world.app.db
    .selectFrom('messages')
    .select('title')
    .where('user_id', '=', doctor.user.id)
    .where('title', '=', '您有一个新的咨询')
    .execute()
  assert.equal(told.length, 1, 'the expert is told once')

  // WeChat delivers again later (it retries until it has seen a 2xx): still once.
  assert.equal((await post(world, PAYMENT_NOTIFY_PATH, notification)).statusCode, 204)
  assert.deepEqual((await footprint(world, id)).transfers, after.transfers)
  await world.assertLedger()
})

test('a forged signature and a tampered ciphertext: 401, nothing changed', async () => {
  const { world, standin } = await wechatWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const { id, orderNo } = await orderedConsultation(world, asker, doctor)
  const before = await footprint(world, id)

  const forged = standin.pay(orderNo, { signWith: stranger.privateKey })
  const tampered = standin.pay(orderNo, { tamperCiphertext: true })
  // A genuine body under someone else's signature, and a genuine signature over a changed body.
  const swapped: RawNotification = {
    headers: forged.headers,
    rawBody: standin.pay(orderNo).rawBody,
  }
  for (const notification of [forged, tampered, swapped]) {
    const res = await post(world, PAYMENT_NOTIFY_PATH, notification)
    assert.equal(res.statusCode, 401, res.body)
    assert.equal(res.json().code, 'FAIL')
  }
  // Forged refund notifications are refused the same way.
  const refundForgery = standin.notification(
    'REFUND.SUCCESS',
    'refund',
    { mchid: TEST_MCHID, out_trade_no: orderNo, out_refund_no: 'R1', refund_status: 'SUCCESS' },
    '退款成功',
    { signWith: stranger.privateKey },
  )
  assert.equal((await post(world, REFUND_NOTIFY_PATH, refundForgery)).statusCode, 401)

  assert.deepEqual(await footprint(world, id), before)
  assert.equal(before.row.state, 'pending-payment')
  assert.deepEqual(before.transfers, [])
  const accounts = await world.app.db.selectFrom('ledger_accounts').select('id').execute()
  assert.deepEqual(accounts, [], 'no money moved anywhere')
  await world.assertLedger()
})

test('paid, but WeChat is unreachable at the deadline and the notification arrives after the pay timer closed the order: credited and refunded in full, once', async () => {
  const { world, standin } = await wechatWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const { id, orderNo } = await orderedConsultation(world, asker, doctor)
  // The payer pays at the last moment; WeChat's notification is late.
  standin.pay(orderNo)
  const transactionId = standin.orders.get(orderNo)!.transaction_id!
  // At the deadline WeChat answers neither the query nor the close: ours closes anyway.
  standin.failNext('error500', 2)
  const asked = standin.calls.length
  await world.advance(15 * 60_000 + 1000, asker)
  await world.drainJobs()
  assert.deepEqual(
    standin.calls
      .slice(asked)
      .map((call) => [call.method, call.path.split('/').at(-1), call.status]),
    [
      ['GET', orderNo, 500],
      ['POST', 'close', 500],
    ],
  )
  const closed = await footprint(world, id)
  assert.equal(closed.row.state, 'cancelled')
  // Closing it at WeChat failed: the notification still comes, signed when it is sent.
  assert.equal(standin.orders.get(orderNo)!.trade_state, 'SUCCESS')
  const notification = standin.pay(orderNo)

  const answers = await Promise.all(
    Array.from({ length: 10 }, () => post(world, PAYMENT_NOTIFY_PATH, notification)),
  )
  assert.deepEqual([...new Set(answers.map((res) => res.statusCode))], [204])
  const credited = await footprint(world, id)
  assert.equal(credited.row.state, 'cancelled', 'a closed order stays closed')
  assert.equal(credited.refunds.length, 1, 'one refund for the late payment')
  const refund = credited.refunds[0]!
  assert.equal(Number(refund.amount_fen), 3000)
  assert.deepEqual(
    credited.transfers.map((transfer) => transfer.kind),
    ['payment', 'refund-hold'],
  )
  assert.equal(credited.transfers[0]!.event_key, `payment:wechatpay:${transactionId}`)
  await world.assertLedger()

  // The refund job asks WeChat (PROCESSING); WeChat later notifies SUCCESS.
  await world.drainJobs()
  const refundAsked = standin.refunds.get(refund.refund_no)
  assert.ok(refundAsked, 'the refund reached WeChat under our refund number')
  assert.equal(refundAsked.refund, 3000)
  assert.equal(refundAsked.out_trade_no, orderNo)
  const done = standin.completeRefund(refund.refund_no)
  const refundAnswers = await Promise.all(
    Array.from({ length: 5 }, () => post(world, REFUND_NOTIFY_PATH, done)),
  )
  assert.deepEqual([...new Set(refundAnswers.map((res) => res.statusCode))], [204])

  const settled = await footprint(world, id)
  assert.equal(settled.refunds[0]!.state, 'succeeded')
  // (The test's clock stood still: same times, so in kind order.)
  assert.deepEqual(
    settled.transfers.map((transfer) => transfer.kind),
    ['payment', 'refund', 'refund-hold'],
  )
  const balances = await world.app.db
    .selectFrom('ledger_accounts')
    .select(['id', 'balance'])
    .where('id', 'in', [`escrow:${id}`, `refund:${id}`, 'provider:wechatpay'])
    .execute()
  assert.deepEqual(Object.fromEntries(balances.map((row) => [row.id, Number(row.balance)])), {
    [`escrow:${id}`]: 0,
    [`refund:${id}`]: 0,
    'provider:wechatpay': 0,
  })
  // The patient sees it as refunded.
  const detail = await world.call(asker, 'GET', `/main/consultations/${id}`)
  assert.equal(detail.status, 200, detail.error ?? '')
  assert.equal(detail.data.order.refundedFen, 3000)
  await world.assertLedger()
})

/** The expert's daily slots taken now (the pay timer gives one back when it closes an order). */
async function slotsTaken(world: ConsultWorld, doctor: TestUser): Promise<number> {
  const rows = await world.app.db
    .selectFrom('limit_counters')
    .select('count')
    .where('key', 'like', `consult-daily:${doctor.user.id}:%`)
    .execute()
  return rows.reduce((sum, row) => sum + Number(row.count), 0)
}

/** The stand-in's calls since `from`: method, the path's last part, status. */
const callsSince = (standin: WechatPayStandin, from: number) =>
  standin.calls.slice(from).map((call) => [call.method, call.path.split('/').at(-1), call.status])

test('the pay timer finds the order paid at WeChat (the notification lost): applied as the notification would be, not closed, not refunded', async () => {
  const { world, standin } = await wechatWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const { id, orderNo } = await orderedConsultation(world, asker, doctor)
  // Paid in time; WeChat's notification never reached us.
  standin.pay(orderNo)
  const transactionId = standin.orders.get(orderNo)!.transaction_id!
  const from = standin.calls.length
  await world.advance(15 * 60_000 + 1000, asker, doctor)
  await world.drainJobs()

  assert.deepEqual(callsSince(standin, from), [['GET', orderNo, 200]], 'asked, never closed')
  const after = await footprint(world, id)
  assert.equal(after.row.state, 'waiting-accept')
  assert.equal(after.row.transaction_id, transactionId)
  assert.deepEqual(after.transfers, [
    { kind: 'payment', event_key: `payment:wechatpay:${transactionId}` },
  ])
  assert.deepEqual(after.refunds, [])
  assert.equal(standin.orders.get(orderNo)!.trade_state, 'SUCCESS')
  // The pay timer ran (and applied the payment); the accept timer is the one left.
  assert.deepEqual(
    after.timers.map((timer) => timer.status),
    ['done', 'queued'],
  )
  assert.equal(after.timers[1]!.run_after, after.row.accept_by)
  assert.equal(await slotsTaken(world, doctor), 1, 'the slot stays taken')
  const told = await world.app.db
    .selectFrom('messages')
    .select('title')
    .where('user_id', '=', doctor.user.id)
    .where('title', '=', '您有一个新的咨询')
    .execute()
  assert.equal(told.length, 1)

  // WeChat's retry turns up after all (signed when it is sent): the same payment, nothing more.
  assert.equal((await post(world, PAYMENT_NOTIFY_PATH, standin.pay(orderNo))).statusCode, 204)
  const again = await footprint(world, id)
  assert.deepEqual(again.transfers, after.transfers)
  assert.deepEqual(again.events, after.events)
  assert.equal(
    (await world.call(doctor, 'POST', `/main/expert/consultations/${id}/accept`)).status,
    200,
  )
  await world.assertLedger()
})

test('the pay timer finds the order unpaid at WeChat: closed there first, then here; the slot comes back and nothing can be paid', async () => {
  const { world, standin } = await wechatWorld()
  const asker = await patient(world)
  const doctor = await expert(world)
  const { id, orderNo } = await orderedConsultation(world, asker, doctor)
  assert.equal(await slotsTaken(world, doctor), 1)
  const from = standin.calls.length
  await world.advance(15 * 60_000 + 1000, asker)
  await world.drainJobs()

  assert.deepEqual(callsSince(standin, from), [
    ['GET', orderNo, 200],
    ['POST', 'close', 204],
  ])
  assert.equal(standin.orders.get(orderNo)!.trade_state, 'CLOSED')
  const after = await footprint(world, id)
  assert.equal(after.row.state, 'cancelled')
  assert.equal(after.row.paid_at, null)
  assert.deepEqual(after.transfers, [])
  assert.equal(await slotsTaken(world, doctor), 0, 'the slot is given back')
  const detail = await world.call(asker, 'GET', `/main/consultations/${id}`)
  assert.equal(detail.data.grant.status, 'expired')
  // The payer is too late: WeChat's order is closed, so paying changes nothing.
  standin.pay(orderNo)
  assert.equal(standin.orders.get(orderNo)!.trade_state, 'CLOSED')
  await world.assertLedger()
})

test('paid between the pay timer’s query and its close (ORDERPAID): applied, not closed; when WeChat cannot be read then, asked again a minute later', async () => {
  for (const readable of [true, false]) {
    let payAfterQuery: string | null = null
    let failAfterClose = false
    const { world, standin } = await wechatWorld({
      wrap: (provider, standin) => ({
        ...provider,
        queryPayment: async (outTradeNo) => {
          const answer = await provider.queryPayment(outTradeNo)
          if (payAfterQuery === outTradeNo) {
            // The payer pays just after WeChat answered NOTPAY.
            payAfterQuery = null
            standin.pay(outTradeNo)
            failAfterClose = !readable
          }
          return answer
        },
        closeOrder: async (outTradeNo) => {
          try {
            await provider.closeOrder(outTradeNo)
          } finally {
            // WeChat cannot be read for the query after the close.
            if (failAfterClose) standin.failNext('error500')
            failAfterClose = false
          }
        },
      }),
    })
    const asker = await patient(world)
    const doctor = await expert(world)
    const { id, orderNo } = await orderedConsultation(world, asker, doctor)
    payAfterQuery = orderNo
    const from = standin.calls.length
    await world.advance(15 * 60_000 + 1000, asker, doctor)
    await world.drainJobs()
    const transactionId = standin.orders.get(orderNo)!.transaction_id!
    if (readable) {
      assert.deepEqual(callsSince(standin, from), [
        ['GET', orderNo, 200],
        ['POST', 'close', 400],
        ['GET', orderNo, 200],
      ])
    } else {
      assert.deepEqual(callsSince(standin, from), [
        ['GET', orderNo, 200],
        ['POST', 'close', 400],
        ['GET', orderNo, 500],
      ])
      const waiting = await footprint(world, id)
      assert.equal(waiting.row.state, 'pending-payment', 'paid at WeChat: not closed here')
      assert.deepEqual(waiting.transfers, [])
      assert.equal(waiting.timers.at(-1)!.status, 'queued')
      assert.equal(
        waiting.timers.at(-1)!.run_after,
        new Date(world.clock.now().getTime() + 60_000).toISOString(),
      )
      await world.advance(60_000, asker, doctor)
      await world.drainJobs()
    }
    const after = await footprint(world, id)
    assert.equal(after.row.state, 'waiting-accept')
    assert.deepEqual(after.transfers, [
      { kind: 'payment', event_key: `payment:wechatpay:${transactionId}` },
    ])
    assert.deepEqual(after.refunds, [])
    assert.equal(await slotsTaken(world, doctor), 1)
    await world.assertLedger()
  }
})
