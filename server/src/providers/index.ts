import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config'
import type { DB } from '../db'
import {
  outboxSmsNotifier,
  outboxSmsProvider,
  type SmsNotifier,
  type SmsProvider,
  unconfiguredSmsNotifier,
  unconfiguredSmsProvider,
} from './sms'
import { type RealNameProvider, unconfiguredRealNameProvider } from './real-name'
import { type SubscribeMessageProvider, unconfiguredSubscribeMessages } from './subscribe-message'
import { type GeoLocator, loadGeoLocator } from './geo'
import { unconfiguredWechatAuth, type WechatAuth } from './wechat'
import { createPaymentProvider, type PaymentProvider } from './payments'
import { createTransferProvider, type TransferProvider } from './transfers'
import { type AiAnalysisProvider, createAiProvider } from './ai'

/** Outside services behind interfaces; the app decorates itself with one set (app.providers). */
export interface Providers {
  sms: SmsProvider
  /** Security notices to a phone (the old number after a change), same gateway as `sms`. */
  smsNotices: SmsNotifier
  wechat: WechatAuth
  /** Real-name verification of an ID card; unconfigured (未配置实名核验) until an adapter is added. */
  realName: RealNameProvider
  /** WeChat subscribe messages (grants, reports); unconfigured (未配置) until an adapter is added. */
  subscribe: SubscribeMessageProvider
  /** City-level place of a public address (GEOIP_XDB); none configured: never a guessed place. */
  geo: GeoLocator
  /**
   * Paying for consultations (providers/payments): WeChat Pay with WECHATPAY_* set, 演示支付 in demo
   * mode without them (no money moves), otherwise 支付未配置.
   */
  payments: PaymentProvider
  /**
   * Paying experts' withdrawals (providers/transfers): WeChat Pay 商家转账 when configured, 演示提现
   * in demo mode without it (no money moves), otherwise 提现未配置.
   */
  transfers: TransferProvider
  /**
   * AI analysis of a study (providers/ai): a draft for a consultation's expert, never shown to the
   * patient. 演示算法 in demo mode (or AI_PROVIDER=demo), otherwise 未配置AI分析服务.
   */
  ai: AiAnalysisProvider
}

/**
 * The configured providers. SMS: the outbox in demo mode or with SMS_PROVIDER=outbox, otherwise
 * unconfigured (503). WeChat: unconfigured until a jscode2session adapter is written for
 * WECHAT_APPID/WECHAT_SECRET. Payments: see createPaymentProvider; only the WeChat Pay adapter
 * calls the internet, and only once WECHATPAY_* is configured.
 */
export function createProviders(
  config: Config,
  db: DB,
  log: FastifyBaseLogger,
  now: () => Date,
): Providers {
  const outbox = config.demoMode || config.smsProvider === 'outbox'
  const sms = outbox ? outboxSmsProvider(db, log, now) : unconfiguredSmsProvider(log)
  const smsNotices = outbox ? outboxSmsNotifier(db, log, now) : unconfiguredSmsNotifier(log)
  return {
    sms,
    smsNotices,
    wechat: unconfiguredWechatAuth,
    realName: unconfiguredRealNameProvider,
    subscribe: unconfiguredSubscribeMessages(log),
    geo: loadGeoLocator(config.geoipXdb, log),
    payments: createPaymentProvider(config, log, now),
    transfers: createTransferProvider(config, log, now, db),
    ai: createAiProvider(config),
  }
}
