import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../config'
import type { DB } from '../../db'
import { demoTransferProvider } from './demo'
import type { TransferProvider } from './types'
import { unconfiguredTransferProvider } from './unconfigured'
import { wechatPayTransferProvider } from './wechatpay'

export * from './types'
export {
  DEMO_TRANSFER_ACCEPT_MS,
  DEMO_TRANSFER_CONFIRM_MS,
  DEMO_TRANSFER_EXPIRED_REASON,
  DEMO_TRANSFER_FAIL_REASON,
  DEMO_TRANSFER_PAY_MS,
  DEMO_TRANSFER_SIGNATURE_HEADER,
  type DemoTransferProvider,
  demoTransferProvider,
  isDemoTransferProvider,
} from './demo'
export { unconfiguredTransferProvider } from './unconfigured'
export { wechatPayTransferProvider, type WechatPayTransferOptions } from './wechatpay'

/**
 * Paying experts' withdrawals (README.md here). WeChat Pay 商家转账 when the merchant is configured
 * for it; none: 演示提现 in demo mode (no money moves), 提现未配置 otherwise. The demo keeps its bills
 * in the database (`db`), so every process answers the same.
 */
export function createTransferProvider(
  config: Pick<Config, 'wechatpay' | 'demoMode' | 'secretKey'>,
  log: FastifyBaseLogger,
  now: () => Date,
  db: DB,
): TransferProvider {
  // The same merchant as payments (WECHATPAY_*), in demo mode too: a configured merchant is meant.
  if (config.wechatpay) return wechatPayTransferProvider(config.wechatpay, { log, now })
  if (config.demoMode) return demoTransferProvider(db, config.secretKey, now)
  log.debug('no transfer provider configured: 提现未配置')
  return unconfiguredTransferProvider
}
