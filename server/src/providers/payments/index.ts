import type { Config } from '../../config'
import { demoPaymentProvider } from './demo'
import type { PaymentProvider } from './types'
import { unconfiguredPaymentProvider } from './unconfigured'
import { type PaymentLog, wechatPayProvider } from './wechatpay'

export * from './types'
export {
  DEMO_SIGNATURE_HEADER,
  type DemoPaymentProvider,
  type DemoToken,
  demoPaymentProvider,
  isDemoPaymentProvider,
} from './demo'
export { unconfiguredPaymentProvider } from './unconfigured'
export {
  PAYMENT_UNAVAILABLE,
  type PaymentLog,
  wechatPayProvider,
  type WechatPayOptions,
} from './wechatpay'

/**
 * WECHATPAY_* all set: WeChat Pay (in demo mode too: a configured merchant is meant). None set: 演示支付
 * in demo mode, 支付未配置 otherwise. A partial set never gets here (loadConfig refuses it).
 */
export function createPaymentProvider(
  config: Pick<Config, 'wechatpay' | 'demoMode' | 'secretKey'>,
  log: PaymentLog,
  now: () => Date = () => new Date(),
): PaymentProvider {
  if (config.wechatpay) return wechatPayProvider(config.wechatpay, { log, now })
  if (config.demoMode) return demoPaymentProvider(config.secretKey, now)
  return unconfiguredPaymentProvider
}
