// test-server: no database
import assert from 'node:assert/strict'
import { constants, privateDecrypt, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test, type TestContext } from 'node:test'
import type { WechatPayConfig } from '../../src/config'
import { wechatPayProvider } from '../../src/providers/payments'
import {
  FundFlowBillInvalid,
  parseFundFlowBill,
  TRANSFER_UNCLEAR,
  transferStatementLines,
  type TransferLog,
  wechatPayTransferProvider,
} from '../../src/providers/transfers/wechatpay'
import {
  type RawTransferNotification,
  type TransferInput,
  TransferNotificationRejected,
  type TransferProvider,
  TransferRefused,
  TransferUnclear,
} from '../../src/providers/transfers/types'
import { createWechatPayClient, WechatPayUnreachable } from '../../src/providers/wechatpay-v3'
import {
  FUND_FLOW_HEADER,
  FUND_FLOW_SUMMARY_HEADER,
  fundFlowCsv,
  startTestMerchant,
  strangerKeys,
  TEST_APPID,
  TEST_MCHID,
  type WechatPayStandin,
} from '../support/wechatpay-standin'

/*
 * The WeChat Pay 商家转账 adapter against the stand-in (test/support/wechatpay-standin.ts), which
 * checks our request signatures, decrypts user_name with the platform's private key, signs its
 * answers, encrypts its notifications with the APIv3 key, keeps the merchant's 运营账户 and writes
 * its 资金账单, as WeChat does.
 */

const stranger = strangerKeys()
const REAL_NAME = '张三丰'

interface LogLine {
  level: string
  fields: Record<string, unknown>
  message: string
}

function recordingLog(): { log: TransferLog; lines: LogLine[] } {
  const lines: LogLine[] = []
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message: string): void => {
      lines.push({ level, fields, message })
    }
  return { log: { info: at('info'), warn: at('warn'), error: at('error') } as TransferLog, lines }
}

interface World {
  standin: WechatPayStandin
  config: WechatPayConfig
  provider: TransferProvider
  lines: LogLine[]
  clock: { now: Date }
  variant(changes: Partial<WechatPayConfig>): TransferProvider
}

/** A stand-in and an adapter sharing one clock (set clock.now to move both). */
async function world(t: TestContext, { timeoutMs = 2_000, start = new Date() } = {}) {
  const clock = { now: start }
  const { standin, config } = await startTestMerchant({ now: () => clock.now })
  t.after(() => standin.stop())
  const { log, lines } = recordingLog()
  const make = (changes: Partial<WechatPayConfig> = {}) =>
    wechatPayTransferProvider({ ...config, ...changes }, { log, now: () => clock.now, timeoutMs })
  const w: World = { standin, config, provider: make(), lines, clock, variant: make }
  return w
}

function aTransfer(changes: Partial<TransferInput> = {}): TransferInput {
  return {
    outBillNo: `W${randomBytes(10).toString('hex')}`,
    amountFen: 7200,
    openid: `oUpF8u${randomBytes(8).toString('hex')}`,
    realName: REAL_NAME,
    remark: '专家咨询服务报酬',
    notifyUrl: 'https://yx.example.cn/main/wallet/transfers/wechatpay/notify',
    report: { role: '医学影像专家', description: '2025年6月图文咨询服务报酬' },
    ...changes,
  }
}

const isUnclear = (error: unknown) =>
  error instanceof TransferUnclear && error.message === TRANSFER_UNCLEAR
const refusedWith = (code: string) => (error: unknown) =>
  error instanceof TransferRefused && error.code === code && /[\u4e00-\u9fff]/.test(error.message)
const isRejected = (error: unknown) => error instanceof TransferNotificationRejected

test('create: signed and accepted, the scene and its report fields, user_name encrypted for the platform only', async (t) => {
  const w = await world(t)
  const input = aTransfer()
  const result = await w.provider.createTransfer(input)
  const bill = w.standin.transfers.get(input.outBillNo)!
  assert.equal(w.standin.calls.at(-1)?.status, 200, 'the stand-in verified our Authorization')
  // What WeChat was told.
  assert.equal(bill.appid, TEST_APPID)
  assert.equal(bill.transfer_scene_id, '1005')
  assert.deepEqual(bill.transfer_scene_report_infos, [
    { info_type: '岗位类型', info_content: '医学影像专家' },
    { info_type: '报酬说明', info_content: '2025年6月图文咨询服务报酬' },
  ])
  assert.equal(bill.openid, input.openid)
  assert.equal(bill.transfer_amount, 7200)
  assert.equal(bill.transfer_remark, '专家咨询服务报酬')
  assert.equal(bill.notify_url, input.notifyUrl)
  // The name: sent (under 2,000 元 too), encrypted; only the platform's private key reads it.
  assert.equal(bill.userName, REAL_NAME)
  const ciphertext = bill.user_name!
  assert.ok(
    !ciphertext.includes(REAL_NAME) && Buffer.from(ciphertext, 'base64').length === 256,
    'RSA-2048 ciphertext, not the name',
  )
  assert.equal(w.standin.decryptSensitive(ciphertext), REAL_NAME)
  assert.throws(() =>
    privateDecrypt(
      { key: stranger.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      Buffer.from(ciphertext, 'base64'),
    ),
  )
  // The answer.
  assert.deepEqual(result, {
    outBillNo: input.outBillNo,
    billNo: bill.transfer_bill_no,
    state: 'WAIT_USER_CONFIRM',
    amountFen: 7200,
    packageInfo: bill.package_info,
    failReason: null,
    updatedAt: new Date(bill.create_time).toISOString(),
  })
  // Nothing personal in the log.
  const logged = JSON.stringify(w.lines)
  assert.ok(
    !logged.includes(REAL_NAME) && !logged.includes(input.openid!),
    'no name or openid logged',
  )
})

test('the whole way: requestMerchantTransfer with confirmParams, TRANSFERING, the SUCCESS notification; paid once', async (t) => {
  const w = await world(t)
  const input = aTransfer({ amountFen: 250_000 }) // 2,500 元: the name is required here
  const created = await w.provider.createTransfer(input)
  const params = w.provider.confirmParams(created)
  assert.deepEqual(params, {
    mchId: TEST_MCHID,
    appId: TEST_APPID,
    packageInfo: created.packageInfo,
  })
  assert.equal(w.standin.lockedFen, 250_000, 'WeChat holds the money until the user confirms')
  w.standin.confirmTransfer(input.outBillNo, params!)
  const transfering = await w.provider.queryTransfer(input.outBillNo)
  assert.equal(transfering?.state, 'TRANSFERING')
  assert.equal(w.provider.confirmParams(transfering!), null)

  const notification = w.standin.completeTransfer(input.outBillNo, 'SUCCESS')
  const envelope = JSON.parse(notification.rawBody)
  assert.equal(envelope.event_type, 'MCHTRANSFER.BILL.FINISHED')
  assert.equal(envelope.resource.original_type, 'mch_payment')
  const notified = await w.provider.parseTransferNotification(notification)
  const bill = w.standin.transfers.get(input.outBillNo)!
  assert.deepEqual(notified, {
    outBillNo: input.outBillNo,
    billNo: bill.transfer_bill_no,
    state: 'SUCCESS',
    amountFen: 250_000,
    packageInfo: null,
    failReason: null,
    updatedAt: new Date(bill.update_time).toISOString(),
  })
  assert.deepEqual(await w.provider.queryTransfer(input.outBillNo), notified)
  assert.equal(w.standin.payouts(input.outBillNo), 1)
  assert.equal(w.standin.lockedFen, 0)
  // Asking again for the same bill number answers the finished bill; nothing is paid again.
  const again = await w.provider.createTransfer(input)
  assert.equal(again.state, 'SUCCESS')
  assert.equal(again.billNo, bill.transfer_bill_no)
  assert.equal(w.standin.payouts(input.outBillNo), 1)
})

test('ACCEPTED first: no confirm params yet; once WAIT_USER_CONFIRM, the same bill number brings the package', async (t) => {
  const w = await world(t)
  w.standin.transferStartState = 'ACCEPTED'
  const input = aTransfer()
  const accepted = await w.provider.createTransfer(input)
  assert.equal(accepted.state, 'ACCEPTED')
  assert.equal(accepted.packageInfo, null)
  assert.equal(w.provider.confirmParams(accepted), null)
  w.standin.readyTransfer(input.outBillNo)
  const queried = await w.provider.queryTransfer(input.outBillNo)
  assert.equal(queried?.state, 'WAIT_USER_CONFIRM')
  assert.equal(queried?.packageInfo, null, 'the query has no package_info')
  const asked = await w.provider.createTransfer(input)
  assert.equal(asked.state, 'WAIT_USER_CONFIRM')
  assert.equal(asked.packageInfo, w.standin.transfers.get(input.outBillNo)!.package_info)
  assert.equal(asked.billNo, accepted.billNo)
  assert.equal(w.standin.transfers.get(input.outBillNo)!.requests, 2)
  assert.equal(w.standin.transfers.size, 1)
})

test('a timeout after WeChat acted is TransferUnclear; the retry with the same bill number answers that bill, paid once', async (t) => {
  const w = await world(t, { timeoutMs: 300 })
  const input = aTransfer()
  w.standin.failNext('lostAnswer')
  const started = Date.now()
  await assert.rejects(w.provider.createTransfer(input), isUnclear)
  assert.ok(Date.now() - started < 2_000, 'gave up at the timeout')
  assert.equal(w.standin.calls.at(-1)?.status, 'lost')
  const bill = w.standin.transfers.get(input.outBillNo)!
  assert.ok(bill, 'WeChat created the bill; only its answer was lost')

  const retried = await w.provider.createTransfer(input)
  assert.equal(retried.billNo, bill.transfer_bill_no)
  assert.equal(retried.state, 'WAIT_USER_CONFIRM')
  assert.equal(bill.requests, 2)
  assert.equal(w.standin.transfers.size, 1)
  assert.equal(w.standin.lockedFen, 7200, 'one hold at WeChat, not two')
  w.standin.confirmTransfer(input.outBillNo, w.provider.confirmParams(retried)!)
  w.standin.completeTransfer(input.outBillNo)
  assert.equal(w.standin.payouts(input.outBillNo), 1)
  assert.ok(
    w.lines.some((line) => line.fields.reason === 'TimeoutError'),
    'the timeout is logged',
  )
})

test('no answer, 500, SYSTEM_ERROR / FREQUENCY_LIMITED, nobody listening: TransferUnclear, never a state', async (t) => {
  const w = await world(t, { timeoutMs: 300 })
  const input = aTransfer()
  w.standin.failNext('hang')
  await assert.rejects(w.provider.createTransfer(input), isUnclear)
  assert.equal(w.standin.transfers.size, 0, 'a hang did nothing at WeChat')
  w.standin.failNext('error500')
  await assert.rejects(w.provider.createTransfer(input), isUnclear)
  w.standin.failNext({ status: 403, code: 'FREQUENCY_LIMITED', message: '频率超限' })
  await assert.rejects(w.provider.createTransfer(input), isUnclear)
  w.standin.failNext({ status: 400, code: 'SYSTEM_ERROR', message: '系统繁忙' })
  await assert.rejects(w.provider.createTransfer(input), isUnclear)
  w.standin.failNext({ status: 429, code: 'FREQUENCY_LIMITED' })
  await assert.rejects(w.provider.queryTransfer(input.outBillNo), isUnclear)
  // None of those asked WeChat to confirm by query: they are not refusals.
  assert.equal(w.standin.calls.filter((call) => call.method === 'GET').length, 1)
  assert.equal((await w.provider.createTransfer(input)).state, 'WAIT_USER_CONFIRM')

  const port = Number(new URL(w.standin.baseUrl).port)
  await w.standin.stop()
  const gone = w.variant({ baseUrl: `http://127.0.0.1:${port}` })
  await assert.rejects(gone.createTransfer(aTransfer()), isUnclear)
  await assert.rejects(gone.queryTransfer(input.outBillNo), isUnclear)
})

test('every answer is verified: tampered, wrongly signed or of an unknown key is TransferUnclear, not a state', async (t) => {
  const w = await world(t)
  const input = aTransfer()
  // The bill is made, but the answer's signature is not the platform's.
  w.standin.failNext('badSignature')
  await assert.rejects(w.provider.createTransfer(input), isUnclear)
  assert.equal(w.standin.transfers.size, 1)
  // Changed in transit: the query's WAIT_USER_CONFIRM reads SUCCESS, and is not believed.
  w.standin.failNext('tamperBody')
  await assert.rejects(w.provider.queryTransfer(input.outBillNo), isUnclear)
  w.standin.failNext('tamperBody')
  await assert.rejects(w.provider.createTransfer(input), isUnclear)
  w.standin.failNext('wrongSerial')
  await assert.rejects(w.provider.queryTransfer(input.outBillNo), isUnclear)
  // A forged "no such bill" is not a null.
  w.standin.failNext('badSignature')
  await assert.rejects(w.provider.queryTransfer('W00000000404'), isUnclear)
  // An adapter holding the wrong platform key believes nothing.
  const wrongKey = w.variant({ platformPublicKey: stranger.publicKey })
  await assert.rejects(wrongKey.queryTransfer(input.outBillNo), isUnclear)
  assert.ok(
    w.lines.some((line) => line.level === 'error' && line.fields.problem === 'signature mismatch'),
    'a signature mismatch is logged as an error',
  )
  // The real state, from a clean answer.
  assert.equal((await w.provider.queryTransfer(input.outBillNo))?.state, 'WAIT_USER_CONFIRM')
  assert.equal(w.standin.transfers.size, 1)
})

test('refusals: confirmed by a query that finds no bill, then TransferRefused with the code and a Chinese text', async (t) => {
  const w = await world(t)
  // NOT_ENOUGH: the 运营账户 cannot cover it. WeChat asks to retry the same bill number after a top-up.
  w.standin.balances.OPERATION = 5_000
  const poor = aTransfer()
  await assert.rejects(w.provider.createTransfer(poor), refusedWith('NOT_ENOUGH'))
  assert.deepEqual(
    w.standin.calls.slice(-2).map((call) => [call.method, call.status]),
    [
      ['POST', 403],
      ['GET', 404],
    ],
    'the refusal was checked with a query',
  )
  assert.equal(w.standin.transfers.size, 0)
  w.standin.topUp(10_000_000)
  assert.equal((await w.provider.createTransfer(poor)).state, 'WAIT_USER_CONFIRM')

  // PARAM_ERROR: 1005 without its report fields filled.
  await assert.rejects(
    w.provider.createTransfer(aTransfer({ report: { role: '', description: '报酬' } })),
    refusedWith('PARAM_ERROR'),
  )
  // INVALID_REQUEST: over the user's 20,000 元 a day.
  const openid = 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o'
  await w.provider.createTransfer(aTransfer({ openid, amountFen: 1_500_000 }))
  await assert.rejects(
    w.provider.createTransfer(aTransfer({ openid, amountFen: 600_000 })),
    refusedWith('INVALID_REQUEST'),
  )
  // NO_AUTH: the merchant has not opened the scene.
  w.standin.transferScenes = ['1000']
  await assert.rejects(w.provider.createTransfer(aTransfer()), refusedWith('NO_AUTH'))
  w.standin.transferScenes = ['1005']
  // Our signature not accepted (a wrong key in the configuration): the query is refused as well,
  // so it stays unclear rather than refused (an earlier, correctly signed attempt cannot be ruled out).
  const calls = w.standin.calls.length
  await assert.rejects(
    w.variant({ privateKey: stranger.privateKey }).createTransfer(aTransfer()),
    isUnclear,
  )
  assert.deepEqual(
    w.standin.calls.slice(calls).map((call) => [call.method, call.status]),
    [
      ['POST', 401],
      ['GET', 401],
    ],
  )
  // A refusal whose confirming query cannot be read stays unclear.
  w.standin.failNext({ status: 400, code: 'PARAM_ERROR', message: '参数错误' })
  w.standin.failNext('error500')
  await assert.rejects(w.provider.createTransfer(aTransfer()), isUnclear)
})

test('a refusal for a bill number WeChat already has answers that bill (and logs a different amount)', async (t) => {
  const w = await world(t)
  const input = aTransfer()
  const first = await w.provider.createTransfer(input)
  const changed = await w.provider.createTransfer({ ...input, amountFen: 9_900 })
  assert.equal(changed.billNo, first.billNo)
  assert.equal(changed.amountFen, 7_200, 'the bill as WeChat has it')
  assert.equal(w.standin.transfers.size, 1)
  assert.ok(
    w.lines.some((line) => line.level === 'error' && line.fields.billFen === 7_200),
    'the other amount is logged as an error',
  )
})

test('refused here without asking WeChat: no openid, 2,000 元 or more without a name, a malformed bill number', async (t) => {
  const w = await world(t)
  await assert.rejects(
    w.provider.createTransfer(aTransfer({ openid: null })),
    refusedWith('OPENID_MISSING'),
  )
  await assert.rejects(
    w.provider.createTransfer(aTransfer({ realName: ' ', amountFen: 200_000 })),
    refusedWith('USER_NAME_MISSING'),
  )
  await assert.rejects(
    w.provider.createTransfer(aTransfer({ outBillNo: 'W-1' })),
    refusedWith('PARAM_ERROR'),
  )
  assert.equal(w.standin.calls.length, 0)
  // Under 2,000 元 without a name: sent without user_name (and without Wechatpay-Serial).
  const plain = aTransfer({ realName: '' })
  assert.equal((await w.provider.createTransfer(plain)).state, 'WAIT_USER_CONFIRM')
  assert.equal(w.standin.transfers.get(plain.outBillNo)!.userName, null)
})

test('a name that is not the user’s real name: FAIL with WeChat’s reason, by notification and by query', async (t) => {
  const w = await world(t)
  const input = aTransfer()
  w.standin.realNames.set(input.openid!, '李四')
  const created = await w.provider.createTransfer(input)
  w.standin.confirmTransfer(input.outBillNo, w.provider.confirmParams(created)!)
  const failed = await w.provider.parseTransferNotification(
    w.standin.transferNotification(input.outBillNo),
  )
  assert.equal(failed.state, 'FAIL')
  assert.equal(failed.failReason, 'NAME_NOT_CORRECT')
  assert.deepEqual(await w.provider.queryTransfer(input.outBillNo), failed)
  assert.equal(w.standin.payouts(input.outBillNo), 0)
  assert.equal(w.standin.lockedFen, 0)
})

test('query: unknown → null; past WeChat’s 30 days → null as well (the domain must not read it as never made)', async (t) => {
  const w = await world(t)
  assert.equal(await w.provider.queryTransfer('W0000000000001'), null)
  const input = aTransfer()
  await w.provider.createTransfer(input)
  w.clock.now = new Date(w.clock.now.getTime() + 31 * 24 * 3_600_000)
  assert.equal(await w.provider.queryTransfer(input.outBillNo), null)
  assert.ok(w.standin.transfers.has(input.outBillNo), 'WeChat still has the bill')
})

test('cancel: WAIT_USER_CONFIRM → CANCELING → CANCELLED by notification; a transfer on its way or done is not cancelled', async (t) => {
  const w = await world(t)
  const input = aTransfer()
  const created = await w.provider.createTransfer(input)
  const canceling = await w.provider.cancelTransfer(input.outBillNo)
  assert.equal(canceling.state, 'CANCELING')
  assert.equal(canceling.amountFen, 7200)
  assert.equal(canceling.billNo, created.billNo)
  assert.equal((await w.provider.cancelTransfer(input.outBillNo)).state, 'CANCELING')
  const cancelled = await w.provider.parseTransferNotification(
    w.standin.completeTransfer(input.outBillNo, 'CANCELLED'),
  )
  assert.equal(cancelled.state, 'CANCELLED')
  assert.equal(w.standin.lockedFen, 0)
  assert.equal(w.standin.payouts(input.outBillNo), 0)
  // Already over: answered as it is, WeChat not asked to cancel.
  const before = w.standin.calls.length
  assert.equal((await w.provider.cancelTransfer(input.outBillNo)).state, 'CANCELLED')
  assert.deepEqual(
    w.standin.calls.slice(before).map((call) => call.method),
    ['GET'],
  )

  // The user has confirmed: WeChat refuses the cancel.
  const moving = aTransfer()
  const made = await w.provider.createTransfer(moving)
  w.standin.confirmTransfer(moving.outBillNo, w.provider.confirmParams(made)!)
  await assert.rejects(w.provider.cancelTransfer(moving.outBillNo), refusedWith('INVALID_REQUEST'))
  await assert.rejects(w.provider.cancelTransfer('W0000000000002'), refusedWith('NOT_FOUND'))
})

test('notifications: posted to our URL they verify and decrypt, duplicates read the same; a forgery gets a 401', async (t) => {
  const w = await world(t)
  const input = aTransfer()
  const created = await w.provider.createTransfer(input)
  w.standin.confirmTransfer(input.outBillNo, w.provider.confirmParams(created)!)
  const received: unknown[] = []
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const notification: RawTransferNotification = {
        headers: req.headers as Record<string, string>,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      }
      w.provider.parseTransferNotification(notification).then(
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

  const notification = w.standin.completeTransfer(input.outBillNo)
  assert.deepEqual(await w.standin.deliver(url, notification, 2), [204, 204])
  assert.equal(received.length, 2)
  assert.deepEqual(received[0], received[1])
  assert.equal((received[0] as { state: string }).state, 'SUCCESS')
  const forged = w.standin.transferNotification(input.outBillNo, { signWith: stranger.privateKey })
  assert.deepEqual(await w.standin.deliver(url, forged), [401])
  assert.equal(received.length, 2)
})

test('notifications that fail a check are rejected: signature, serial, timestamp, ciphertext, body, merchant, kind', async (t) => {
  const w = await world(t)
  const input = aTransfer()
  await w.provider.createTransfer(input)
  w.standin.completeTransfer(input.outBillNo, 'FAIL', { failReason: 'ACCOUNT_FROZEN' })
  const parse = (notification: RawTransferNotification) =>
    w.provider.parseTransferNotification(notification)
  const spoiled = (spoilers: Parameters<WechatPayStandin['transferNotification']>[1]) =>
    parse(w.standin.transferNotification(input.outBillNo, spoilers))
  const seconds = Math.floor(Date.now() / 1000)

  await assert.rejects(spoiled({ signWith: stranger.privateKey }), isRejected)
  await assert.rejects(
    spoiled({ serial: 'PUB_KEY_ID_0116000000000000000000000000000999' }),
    isRejected,
  )
  await assert.rejects(spoiled({ timestamp: seconds - 6 * 60 }), isRejected)
  await assert.rejects(spoiled({ timestamp: seconds + 6 * 60 }), isRejected)
  await assert.rejects(spoiled({ tamperCiphertext: true }), isRejected)
  await assert.rejects(spoiled({ resource: { mchid: '1900000999' } }), isRejected)
  await assert.rejects(spoiled({ resource: { state: 'PAID' } }), isRejected)
  const genuine = w.standin.transferNotification(input.outBillNo)
  await assert.rejects(
    parse({ ...genuine, rawBody: genuine.rawBody.replace('商家转账单据终态通知', '已到账') }),
    isRejected,
  )
  await assert.rejects(parse({ headers: {}, rawBody: genuine.rawBody }), isRejected)
  // Kinds do not cross: a payment's notification is not a transfer's, nor the other way round.
  const payment = w.standin.notification('TRANSACTION.SUCCESS', 'transaction', {}, '支付成功')
  await assert.rejects(parse(payment), isRejected)
  const payments = wechatPayProvider(w.config, { log: recordingLog().log })
  await assert.rejects(payments.parsePaymentNotification(genuine))
  // A transfer resource under another event type.
  const otherEvent = w.standin.notification(
    'MCHTRANSFER.BATCH.FINISHED',
    'mch_payment',
    { out_bill_no: input.outBillNo },
    '批次',
  )
  await assert.rejects(parse(otherEvent), isRejected)
  // The genuine one still passes, with WeChat's reason.
  const failed = await parse(genuine)
  assert.equal(failed.state, 'FAIL')
  assert.equal(failed.failReason, 'ACCOUNT_FROZEN')
})

test('daily statement: 资金账单 of the 运营账户, gzip, SHA1 checked; the day’s successful transfers only', async (t) => {
  const dayOne = new Date('2025-06-08T09:30:00+08:00')
  const w = await world(t, { start: dayOne })
  w.standin.topUp(500_000) // a 充值 line: not a transfer
  const paid = aTransfer({ amountFen: 7_200 })
  const failed = aTransfer({ amountFen: 3_300 })
  const cancelled = aTransfer({ amountFen: 1_100 })
  const late = aTransfer({ amountFen: 4_400 })
  for (const input of [paid, failed, cancelled, late]) {
    const made = await w.provider.createTransfer(input)
    if (input !== cancelled)
      w.standin.confirmTransfer(input.outBillNo, w.provider.confirmParams(made)!)
  }
  w.clock.now = new Date('2025-06-08T21:15:00+08:00')
  w.standin.completeTransfer(paid.outBillNo)
  w.standin.completeTransfer(failed.outBillNo, 'FAIL')
  w.standin.completeTransfer(cancelled.outBillNo, 'CANCELLED')
  // Paid after midnight: the next day's statement.
  w.clock.now = new Date('2025-06-09T00:00:05+08:00')
  w.standin.completeTransfer(late.outBillNo)

  // The day is not over (or the bill not made yet): ask again later.
  w.clock.now = new Date('2025-06-08T23:00:00+08:00')
  await assert.rejects(w.provider.dailyStatement('2025-06-08'), isUnclear)

  w.clock.now = new Date('2025-06-10T10:30:00+08:00')
  const bill = w.standin.transfers.get(paid.outBillNo)!
  assert.deepEqual(await w.provider.dailyStatement('2025-06-08'), [
    {
      outBillNo: paid.outBillNo,
      billNo: bill.transfer_bill_no,
      state: 'SUCCESS',
      amountFen: 7_200,
      at: new Date('2025-06-08T21:15:00+08:00').toISOString(),
    },
  ])
  assert.deepEqual(
    (await w.provider.dailyStatement('2025-06-09')).map((line) => [line.outBillNo, line.amountFen]),
    [[late.outBillNo, 4_400]],
  )
  // Nothing moved that day: an empty statement.
  assert.deepEqual(await w.provider.dailyStatement('2025-06-07'), [])
  // Another account holds no transfers.
  assert.deepEqual(
    await w.variant({ transferAccountType: 'BASIC' }).dailyStatement('2025-06-08'),
    [],
  )

  // A file changed on the way fails its SHA1; a wrongly signed application is not believed.
  w.standin.failNext('tamperBody', 1, /^\/v3\/billdownload\//)
  await assert.rejects(w.provider.dailyStatement('2025-06-08'), isUnclear)
  assert.ok(
    w.lines.some((line) => line.message === '微信支付资金账单摘要不符，已拒绝'),
    'the SHA1 check caught it',
  )
  w.standin.failNext('badSignature')
  await assert.rejects(w.provider.dailyStatement('2025-06-08'), isUnclear)
  await assert.rejects(w.provider.dailyStatement('2025-6-8'), refusedWith('PARAM_ERROR'))
  await assert.rejects(w.provider.dailyStatement('2025-06-11'), refusedWith('INVALID_REQUEST'))
})

test('the bill download sends our Authorization only to WeChat’s hosts', async (t) => {
  const w = await world(t)
  let asked = 0
  const client = createWechatPayClient(w.config, {
    log: recordingLog().log,
    fetch: async (...args) => {
      asked++
      return fetch(...args)
    },
  })
  await assert.rejects(
    client.download('https://evil.example/v3/billdownload/file?token=x'),
    WechatPayUnreachable,
  )
  await assert.rejects(client.download('not a url'), WechatPayUnreachable)
  assert.equal(asked, 0)
})

test('资金账单 parsing: ` prefixes, both kinds of parentheses, counts as 20.0, the summary must agree', () => {
  const at = new Date('2025-06-08T21:15:00+08:00')
  const line = {
    account: 'OPERATION' as const,
    at,
    wechatNo: '1330000000000000000000000000000001',
    flowNo: '19000001092025060800000001',
    business: '商家转账',
    type: '商家转账',
    direction: '支出' as const,
    fen: 7_205,
    balanceFen: 99_992_795,
    applicant: '1900000109API',
    remark: '专家咨询服务报酬, 6月',
    voucher: 'W20250608000001',
  }
  const back = { ...line, direction: '收入' as const, fen: 1_100, voucher: 'W20250608000002' }
  const topUp = {
    ...line,
    business: '充值/提现',
    type: '充值',
    direction: '收入' as const,
    voucher: '',
  }
  const csv = fundFlowCsv([line, back, topUp])
  const lines = parseFundFlowBill(csv)
  assert.equal(lines.length, 3)
  assert.deepEqual(lines[0], {
    at: at.toISOString(),
    wechatNo: line.wechatNo,
    flowNo: line.flowNo,
    business: '商家转账',
    type: '商家转账',
    direction: '支出',
    fen: 7_205,
    remark: '专家咨询服务报酬, 6月',
    voucher: 'W20250608000001',
  })
  assert.deepEqual(
    transferStatementLines(lines).map((one) => [one.outBillNo, one.state, one.amountFen]),
    [
      ['W20250608000001', 'SUCCESS', 7_205],
      ['W20250608000002', 'FAIL', 1_100],
    ],
  )
  // Full-width parentheses in the header, a BOM, LF endings, counts written as 3.0.
  const variant = `\uFEFF${csv
    .replace('收支金额(元)', '收支金额（元）')
    .replace(/\r\n/g, '\n')
    .replace(/`3,`2,/, '`3.0,`2.0,')}`
  assert.deepEqual(parseFundFlowBill(variant), lines)
  // Cut short, or the summary edited: refused, not half read.
  const rows = csv.trimEnd().split('\r\n')
  assert.throws(
    () => parseFundFlowBill([rows[0], rows[1], FUND_FLOW_SUMMARY_HEADER, rows.at(-1)].join('\n')),
    FundFlowBillInvalid,
  )
  assert.throws(() => parseFundFlowBill(rows.slice(0, -2).join('\n')), FundFlowBillInvalid)
  assert.throws(() => parseFundFlowBill(csv.replace('`72.05', '`72.50')), FundFlowBillInvalid)
  assert.throws(
    () =>
      parseFundFlowBill(csv.replace(FUND_FLOW_HEADER, FUND_FLOW_HEADER.replace('业务凭证号', 'x'))),
    FundFlowBillInvalid,
  )
})
