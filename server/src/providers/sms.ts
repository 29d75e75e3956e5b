import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { SmsPurpose } from '@contract/sso/auth'
import type { DB } from '../db'
import { keyedHash, openWithSecret, sealWithSecret } from '../crypto/secret-key'
import { ApiError } from '../http/errors'
import { maskMobile } from '../masking'

/**
 * Delivers a verification code. The embedded default is the outbox (below); a real
 * gateway is another implementation. `send` throws when the message was not handed over.
 */
export interface SmsProvider {
  send(mobile: string, purpose: SmsPurpose, code: string): Promise<void>
}

export const SMS_NOT_CONFIGURED = '短信服务未配置，暂时无法发送验证码'

/** The ApiError an unconfigured SMS provider throws (503; the text goes to the operator's log). */
export function smsNotConfigured(): ApiError {
  return new ApiError(503, SMS_NOT_CONFIGURED)
}

/** How the SMS outbox names a phone: a keyed HMAC, never the number. */
export function outboxMobileKey(mobile: string): string {
  return keyedHash('outbox-mobile', mobile)
}

/**
 * The embedded SMS provider: nothing leaves the machine, each message is written to the sms_outbox
 * table (read by the demo-only endpoint GET /main/demo/sms/latest). The log line names the masked
 * phone only. The table holds neither the number nor the text in clear: the number as a keyed HMAC
 * (SECRET_KEY; found again by computing it), the text sealed with AES-256-GCM under the same secret,
 * so a copy of the database alone reads no code and no phone number. Read it with readOutbox.
 */
export function outboxSmsProvider(
  db: DB,
  log: FastifyBaseLogger,
  now: () => Date = () => new Date(),
): SmsProvider {
  return {
    async send(mobile: string, purpose: SmsPurpose, code: string) {
      const createdAt = now().toISOString()
      await db
        .insertInto('sms_outbox')
        .values({
          id: randomUUID(),
          mobile: outboxMobileKey(mobile),
          purpose,
          code: sealWithSecret(code),
          created_at: createdAt,
        })
        .execute()
      log.info({ mobile: maskMobile(mobile), purpose }, '验证码已发送（演示）')
    },
  }
}

/** No provider configured outside demo mode: sending is refused (503) instead of pretending. */
export function unconfiguredSmsProvider(log: FastifyBaseLogger): SmsProvider {
  return {
    async send() {
      log.warn('短信服务未配置：设置 SMS_PROVIDER 后才能发送验证码')
      throw smsNotConfigured()
    },
  }
}

/**
 * Plain notices to a phone (no code): "your phone number was changed". A real gateway sends them
 * with a notice template; the outbox keeps them beside the codes (purpose `notice`, the text in the
 * `code` column), which is where a demo reads them. `notify` throws when the message was not handed
 * over; callers treat a notice as best effort once the change it reports has been made.
 */
export interface SmsNotifier {
  notify(mobile: string, text: string): Promise<void>
}

export const SMS_NOTICE_PURPOSE = 'notice'

export function outboxSmsNotifier(
  db: DB,
  log: FastifyBaseLogger,
  now: () => Date = () => new Date(),
): SmsNotifier {
  return {
    async notify(mobile: string, text: string) {
      await db
        .insertInto('sms_outbox')
        .values({
          id: randomUUID(),
          mobile: outboxMobileKey(mobile),
          purpose: SMS_NOTICE_PURPOSE,
          code: sealWithSecret(text),
          created_at: now().toISOString(),
        })
        .execute()
      log.info({ mobile: maskMobile(mobile) }, '通知短信已发送（演示）')
    },
  }
}

export function unconfiguredSmsNotifier(log: FastifyBaseLogger): SmsNotifier {
  return {
    async notify() {
      log.warn('短信服务未配置：安全通知短信未发送')
      throw smsNotConfigured()
    },
  }
}

export interface OutboxMessage {
  mobile: string
  /** An SMS purpose, or `notice` */
  purpose: string
  /** The code, or a notice's text */
  code: string
  created_at: string
}

/** The outbox messages sent to a phone, oldest first, opened (demo endpoint, tests). */
export async function readOutbox(
  db: DB,
  mobile: string,
  options: { purposes?: readonly string[] } = {},
): Promise<OutboxMessage[]> {
  let query = db
    .selectFrom('sms_outbox')
    .select(['purpose', 'code', 'created_at'])
    .where('mobile', '=', outboxMobileKey(mobile))
  if (options.purposes) query = query.where('purpose', 'in', options.purposes)
  const rows = await query.orderBy('created_at').execute()
  return rows.map((row) => ({ ...row, mobile, code: openWithSecret(row.code) }))
}
