import { PaymentNotConfigured, type PaymentProvider } from './types'

/**
 * No merchant configured outside demo mode: every call throws PaymentNotConfigured (支付未配置), so a
 * consultation cannot be paid for instead of being "paid" by nobody.
 */
export const unconfiguredPaymentProvider: PaymentProvider = {
  name: 'unconfigured',
  configured: false,
  prepay: notConfigured,
  queryPayment: notConfigured,
  closeOrder: notConfigured,
  parsePaymentNotification: notConfigured,
  refund: notConfigured,
  queryRefund: notConfigured,
  parseRefundNotification: notConfigured,
}

async function notConfigured(): Promise<never> {
  throw new PaymentNotConfigured()
}
