import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import type { DB } from '../../db'
import {
  type RawTransferNotification,
  type StatementLine,
  TRANSFER_STATES,
  TransferNotificationRejected,
  type TransferProvider,
  TransferRefused,
  type TransferResult,
  type TransferState,
} from './types'

/*
 * 演示提现: no money moves and nothing leaves the machine. It exists so that a demo runs the same
 * withdrawal, notification, job and settlement code as 商家转账, through the same states:
 *
 *   ACCEPTED ──2 s──▶ WAIT_USER_CONFIRM ──确认收款 (demoConfirm)──▶ TRANSFERING ──3 s──▶ SUCCESS
 *                      └─ 24 h unconfirmed, or cancelTransfer ──▶ CANCELLED                └▶ FAIL
 *
 * (without confirmation, `needsConfirm: false`: ACCEPTED ─2 s─▶ TRANSFERING ─3 s─▶ SUCCESS / FAIL).
 * A bill whose amount ends in .44 元 (44 fen) ends FAIL with the reason 演示失败, so the failure path
 * can be tried from the app: with no tax withheld, type an amount like 12.44.
 *
 * Bills live in the database (`demo_transfer_bills`): only their times are stored, and the state is
 * a function of those times and the clock, so every process (and a restarted one) answers the same.
 * Notifications are signed with an HMAC keyed from SECRET_KEY (like 演示支付): `demoNotification`
 * builds one, `parseTransferNotification` verifies it as the WeChat adapter verifies WeChat's.
 */

export const DEMO_TRANSFER_SIGNATURE_HEADER = 'x-demo-signature'
/** ACCEPTED lasts this long; then WAIT_USER_CONFIRM (or TRANSFERING without confirmation). */
export const DEMO_TRANSFER_ACCEPT_MS = 2_000
/** TRANSFERING lasts this long; then SUCCESS, or FAIL for an amount ending in 44 fen. */
export const DEMO_TRANSFER_PAY_MS = 3_000
/** An unconfirmed bill is closed after this (WeChat closes them after about 24 h). */
export const DEMO_TRANSFER_CONFIRM_MS = 24 * 3600_000
export const DEMO_TRANSFER_FAIL_REASON = '演示失败'
export const DEMO_TRANSFER_EXPIRED_REASON = '超过 24 小时未确认收款'

export interface DemoTransferProvider extends TransferProvider {
  readonly name: 'demo'
  /** 确认收款 in the demo (the mini-program's requestMerchantTransfer): WAIT_USER_CONFIRM → TRANSFERING. */
  demoConfirm(outBillNo: string): Promise<TransferResult>
  /** A state notification for this result, signed as the demo signs them. */
  demoNotification(result: TransferResult): RawTransferNotification
}

export function isDemoTransferProvider(
  provider: TransferProvider,
): provider is DemoTransferProvider {
  return provider.name === 'demo'
}

interface Bill {
  out_bill_no: string
  bill_no: string
  amount_fen: number | string
  needs_confirm: number
  created_at: string
  confirmed_at: string | null
  cancelled_at: string | null
}

/** The China calendar day (YYYY-MM-DD) of a time. */
const chinaDate = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10)

export function demoTransferProvider(
  db: DB,
  secretKey: Buffer,
  now: () => Date = () => new Date(),
  options: { needsConfirm?: boolean } = {},
): DemoTransferProvider {
  const needsConfirm = options.needsConfirm ?? true
  const key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'demo-transfers', 32))
  const mac = (label: string, text: string) =>
    createHmac('sha256', key).update(`${label}\0${text}`, 'utf8').digest('base64url')
  const same = (a: string, b: string) =>
    a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

  /** Where a bill is now, and since when. */
  const stateOf = (bill: Bill, at: number): { state: TransferState; since: number } => {
    const created = Date.parse(bill.created_at)
    const amount = Number(bill.amount_fen)
    const final = (since: number) => ({
      state: (amount % 100 === 44 ? 'FAIL' : 'SUCCESS') as TransferState,
      since,
    })
    if (bill.cancelled_at) return { state: 'CANCELLED', since: Date.parse(bill.cancelled_at) }
    if (bill.needs_confirm) {
      if (bill.confirmed_at) {
        const confirmed = Date.parse(bill.confirmed_at)
        if (at >= confirmed + DEMO_TRANSFER_PAY_MS) return final(confirmed + DEMO_TRANSFER_PAY_MS)
        return { state: 'TRANSFERING', since: confirmed }
      }
      if (at >= created + DEMO_TRANSFER_CONFIRM_MS)
        return { state: 'CANCELLED', since: created + DEMO_TRANSFER_CONFIRM_MS }
      if (at >= created + DEMO_TRANSFER_ACCEPT_MS)
        return { state: 'WAIT_USER_CONFIRM', since: created + DEMO_TRANSFER_ACCEPT_MS }
      return { state: 'ACCEPTED', since: created }
    }
    const paying = created + DEMO_TRANSFER_ACCEPT_MS
    if (at >= paying + DEMO_TRANSFER_PAY_MS) return final(paying + DEMO_TRANSFER_PAY_MS)
    if (at >= paying) return { state: 'TRANSFERING', since: paying }
    return { state: 'ACCEPTED', since: created }
  }

  const resultOf = (bill: Bill): TransferResult => {
    const { state, since } = stateOf(bill, now().getTime())
    const expired = state === 'CANCELLED' && !bill.cancelled_at
    return {
      outBillNo: bill.out_bill_no,
      billNo: bill.bill_no,
      state,
      amountFen: Number(bill.amount_fen),
      packageInfo: null,
      failReason:
        state === 'FAIL'
          ? DEMO_TRANSFER_FAIL_REASON
          : expired
            ? DEMO_TRANSFER_EXPIRED_REASON
            : null,
      updatedAt: new Date(since).toISOString(),
    }
  }

  const find = (outBillNo: string) =>
    db
      .selectFrom('demo_transfer_bills')
      .selectAll()
      .where('out_bill_no', '=', outBillNo)
      .executeTakeFirst()

  const mustFind = async (outBillNo: string) => {
    const bill = await find(outBillNo)
    if (!bill) throw new TransferRefused('转账单不存在', 'NOT_FOUND')
    return bill
  }

  return {
    name: 'demo',
    configured: true,

    async createTransfer(input) {
      if (!/^[A-Za-z0-9]{5,32}$/.test(input.outBillNo))
        throw new TransferRefused('商户单号格式不正确', 'PARAM_ERROR')
      if (!Number.isSafeInteger(input.amountFen) || input.amountFen < 1)
        throw new TransferRefused('转账金额不正确', 'PARAM_ERROR')
      await db
        .insertInto('demo_transfer_bills')
        .values({
          out_bill_no: input.outBillNo,
          bill_no: `DEMO${mac('bill', input.outBillNo)
            .replace(/[^A-Za-z0-9]/g, '')
            .slice(0, 24)}`,
          amount_fen: input.amountFen,
          needs_confirm: needsConfirm ? 1 : 0,
          created_at: now().toISOString(),
          confirmed_at: null,
          cancelled_at: null,
        })
        .onConflict((oc) => oc.column('out_bill_no').doNothing())
        .execute()
      const bill = await mustFind(input.outBillNo)
      // The same bill number with another amount is a caller's bug: refused, never a second bill.
      if (Number(bill.amount_fen) !== input.amountFen)
        throw new TransferRefused('同一商户单号的金额不一致', 'PARAM_ERROR')
      return resultOf(bill)
    },

    async queryTransfer(outBillNo) {
      const bill = await find(outBillNo)
      return bill ? resultOf(bill) : null
    },

    async cancelTransfer(outBillNo) {
      const bill = await mustFind(outBillNo)
      const { state } = stateOf(bill, now().getTime())
      if (state === 'CANCELLED') return resultOf(bill)
      if (state !== 'ACCEPTED' && state !== 'WAIT_USER_CONFIRM')
        throw new TransferRefused('转账已在处理，无法撤销', 'INVALID_REQUEST')
      await db
        .updateTable('demo_transfer_bills')
        .set({ cancelled_at: now().toISOString() })
        .where('out_bill_no', '=', outBillNo)
        .where('cancelled_at', 'is', null)
        .where('confirmed_at', 'is', null)
        .execute()
      return resultOf(await mustFind(outBillNo))
    },

    async demoConfirm(outBillNo) {
      const bill = await mustFind(outBillNo)
      const { state } = stateOf(bill, now().getTime())
      if (bill.needs_confirm && (state === 'ACCEPTED' || state === 'WAIT_USER_CONFIRM')) {
        await db
          .updateTable('demo_transfer_bills')
          .set({ confirmed_at: now().toISOString() })
          .where('out_bill_no', '=', outBillNo)
          .where('cancelled_at', 'is', null)
          .where('confirmed_at', 'is', null)
          .execute()
      }
      return resultOf(await mustFind(outBillNo))
    },

    confirmParams() {
      return null
    },

    demoNotification(result) {
      const rawBody = JSON.stringify({ kind: 'transfer', ...result })
      return {
        headers: { [DEMO_TRANSFER_SIGNATURE_HEADER]: mac('notification', rawBody) },
        rawBody,
      }
    },

    async parseTransferNotification(notification) {
      const signature = notification.headers[DEMO_TRANSFER_SIGNATURE_HEADER] ?? ''
      if (!same(signature, mac('notification', notification.rawBody))) {
        throw new TransferNotificationRejected('demo transfer notification signature mismatch')
      }
      let body: Record<string, unknown>
      try {
        body = JSON.parse(notification.rawBody) as Record<string, unknown>
      } catch {
        throw new TransferNotificationRejected('demo transfer notification is not JSON')
      }
      const state = TRANSFER_STATES.find((known) => known === body.state)
      if (body.kind !== 'transfer' || !state || typeof body.outBillNo !== 'string') {
        throw new TransferNotificationRejected('not a demo transfer notification')
      }
      const text = (value: unknown) => (typeof value === 'string' ? value : null)
      return {
        outBillNo: body.outBillNo,
        billNo: text(body.billNo),
        state,
        amountFen: Number(body.amountFen),
        packageInfo: text(body.packageInfo),
        failReason: text(body.failReason),
        updatedAt: text(body.updatedAt),
      }
    },

    async dailyStatement(date) {
      // Bills whose present state was reached on that China day (the demo's 转账明细).
      const from = Date.parse(`${date}T00:00:00.000Z`) - 8 * 3600_000
      const bills = await db
        .selectFrom('demo_transfer_bills')
        .selectAll()
        .where('created_at', '>=', new Date(from - DEMO_TRANSFER_CONFIRM_MS - 60_000).toISOString())
        .where('created_at', '<', new Date(from + 24 * 3600_000).toISOString())
        .orderBy('created_at')
        .execute()
      const lines: StatementLine[] = []
      for (const bill of bills) {
        const { state, since } = stateOf(bill, now().getTime())
        if (chinaDate(since) !== date) continue
        lines.push({
          outBillNo: bill.out_bill_no,
          billNo: bill.bill_no,
          state,
          amountFen: Number(bill.amount_fen),
          at: new Date(since).toISOString(),
        })
      }
      return lines
    },
  }
}
