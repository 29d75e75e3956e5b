import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config'
import type { DB } from '../db'
import type { WechatAuth } from '../domain/identity/accounts'
import type { SmsProvider } from '../domain/identity/sms'
import { outboxSmsProvider, unconfiguredSmsProvider } from './sms'
import { unconfiguredWechatAuth } from './wechat'

/** Outside services behind interfaces; the app decorates itself with one set (app.providers). */
export interface Providers {
  sms: SmsProvider
  wechat: WechatAuth
}

/**
 * The configured providers. SMS: the outbox in demo mode or with SMS_PROVIDER=outbox, otherwise
 * unconfigured (503). WeChat: unconfigured until a jscode2session adapter is written for
 * WECHAT_APPID/WECHAT_SECRET; no code here calls the internet.
 */
export function createProviders(
  config: Config,
  db: DB,
  log: FastifyBaseLogger,
  now: () => Date,
): Providers {
  const sms =
    config.demoMode || config.smsProvider === 'outbox'
      ? outboxSmsProvider(db, log, now)
      : unconfiguredSmsProvider(log)
  return { sms, wechat: unconfiguredWechatAuth }
}
