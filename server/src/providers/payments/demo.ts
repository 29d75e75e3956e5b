import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import {
  type PaymentProvider,
  type PaymentResult,
  PaymentNotificationRejected,
  type PrepayInput,
  type RawNotification,
  type RefundInput,
  type RefundResult,
  type RefundState,
} from './types'

/*
 * 演示支付: no money moves and nothing leaves the machine. It exists so that a demo runs the same
 * order, notification and settlement code as WeChat Pay: prepay hands out a signed token, the
 * server's confirm call (built by the domain) turns it into a notification with demoNotification,
 * and parsePaymentNotification verifies that notification like a real one. Everything is signed with
 * an HMAC under the server secret (SECRET_KEY), so a notification cannot be forged from outside.
 * Stateless: queryPayment and queryRefund answer null (the domain treats null as unpaid / unknown),
 * refunds succeed at once.
 */

const REFUND_STATES: RefundState[] = ['SUCCESS', 'PROCESSING', 'CLOSED', 'ABNORMAL']

export const DEMO_SIGNATURE_HEADER = 'x-demo-signature'

/** The token a demo payment page confirms with: the order, its amount, and until when. */
export interface DemoToken {
  outTradeNo: string
  amountFen: number
  expiresAt: Date
}

export interface DemoPaymentProvider extends PaymentProvider {
  readonly name: 'demo'
  /** The token's contents when its HMAC holds and it has not expired; null otherwise. */
  readToken(token: string): DemoToken | null
  /** A payment notification as the confirm call builds it (state SUCCESS, paid now). */
  demoNotification(outTradeNo: string, amountFen: number, transactionId: string): RawNotification
  /** A refund notification (state SUCCESS), for the same settlement path as WeChat's. */
  demoRefundNotification(refund: RefundResult): RawNotification
}

export function isDemoPaymentProvider(provider: PaymentProvider): provider is DemoPaymentProvider {
  return provider.name === 'demo'
}

export function demoPaymentProvider(
  secretKey: Buffer,
  now: () => Date = () => new Date(),
): DemoPaymentProvider {
  const key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'demo-payments', 32))
  const mac = (label: string, text: string) =>
    createHmac('sha256', key).update(`${label}\0${text}`, 'utf8').digest('base64url')
  const same = (a: string, b: string) =>
    a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

  const signed = (kind: string, body: object): RawNotification => {
    const rawBody = JSON.stringify({ kind, ...body })
    return { headers: { [DEMO_SIGNATURE_HEADER]: mac('notification', rawBody) }, rawBody }
  }

  /** The verified body of a demo notification of this kind. */
  const open = (notification: RawNotification, kind: string): Record<string, unknown> => {
    const signature = notification.headers[DEMO_SIGNATURE_HEADER] ?? ''
    if (!same(signature, mac('notification', notification.rawBody))) {
      throw new PaymentNotificationRejected('demo notification signature mismatch')
    }
    const body = JSON.parse(notification.rawBody) as Record<string, unknown>
    if (body.kind !== kind) throw new PaymentNotificationRejected(`not a demo ${kind} notification`)
    return body
  }

  return {
    name: 'demo',
    configured: true,

    async prepay(input: PrepayInput) {
      const payload = `${input.outTradeNo}.${input.amountFen}.${Math.floor(input.expiresAt.getTime() / 1000)}`
      return { kind: 'demo', token: `${payload}.${mac('token', payload)}` }
    },

    readToken(token: string) {
      const match = /^([A-Za-z0-9_-]{6,32})\.(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]+)$/.exec(token)
      if (!match) return null
      const [, outTradeNo, amount, expires, signature] = match as unknown as [
        string,
        string,
        string,
        string,
        string,
      ]
      if (!same(signature, mac('token', `${outTradeNo}.${amount}.${expires}`))) return null
      const expiresAt = new Date(Number(expires) * 1000)
      if (expiresAt.getTime() <= now().getTime()) return null
      return { outTradeNo, amountFen: Number(amount), expiresAt }
    },

    async queryPayment() {
      return null
    },

    async closeOrder() {},

    demoNotification(outTradeNo, amountFen, transactionId) {
      return signed('payment', {
        outTradeNo,
        amountFen,
        transactionId,
        paidAt: now().toISOString(),
      })
    },

    async parsePaymentNotification(notification): Promise<PaymentResult> {
      const body = open(notification, 'payment')
      return {
        outTradeNo: String(body.outTradeNo),
        transactionId: String(body.transactionId),
        state: 'SUCCESS',
        amountFen: Number(body.amountFen),
        paidAt: String(body.paidAt),
      }
    },

    async refund(input: RefundInput) {
      return {
        outRefundNo: input.outRefundNo,
        outTradeNo: input.outTradeNo,
        refundId: `demo-${mac('refund', input.outRefundNo).slice(0, 24)}`,
        state: 'SUCCESS',
        refundFen: input.refundFen,
        succeededAt: now().toISOString(),
      }
    },

    async queryRefund() {
      return null
    },

    demoRefundNotification(refund) {
      return signed('refund', { ...refund })
    },

    async parseRefundNotification(notification): Promise<RefundResult> {
      const body = open(notification, 'refund')
      return {
        outRefundNo: String(body.outRefundNo),
        outTradeNo: String(body.outTradeNo),
        refundId: body.refundId === null ? null : String(body.refundId),
        state: REFUND_STATES.find((state) => state === body.state) ?? 'ABNORMAL',
        refundFen: Number(body.refundFen),
        succeededAt: body.succeededAt === null ? null : String(body.succeededAt),
      }
    },
  }
}
