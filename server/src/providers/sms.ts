import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { SmsPurpose } from '@contract/sso/auth'
import type { DB } from '../db'
import { maskMobile } from '../domain/identity/mobile'
import { type SmsProvider, smsNotConfigured } from '../domain/identity/sms'

/**
 * The embedded SMS provider: nothing leaves the machine, each message is written to the sms_outbox
 * table (read by the demo-only endpoint GET /main/demo/sms/latest). The log line names the masked
 * phone only; the code itself stays in the table.
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
        .values({ id: randomUUID(), mobile, purpose, code, created_at: createdAt })
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
          mobile,
          purpose: SMS_NOTICE_PURPOSE,
          code: text,
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
