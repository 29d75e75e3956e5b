import { randomUUID } from 'node:crypto'
import type { SmsPurpose } from '@contract/sso/auth'
import type { DB } from '../../db'
import { ApiError, badRequest, tooManyRequests } from '../../http/errors'
import { rateLimitWait, recordRateEvent, type RateRule } from './rate-limit'
import { hashSecret, randomDigits, randomToken, sameHash } from './secrets'
import { DAY, describeWait, HOUR, isoAfter, MINUTE, SECOND } from './time'

/**
 * Delivers a verification code. The embedded default is the outbox (src/providers/sms.ts); a real
 * gateway is another implementation. `send` throws when the message was not handed over.
 */
export interface SmsProvider {
  send(mobile: string, purpose: SmsPurpose, code: string): Promise<void>
}

/** Limits of SPEC section 9 and the accounts issue. */
export const SMS_LIMITS = {
  codeLength: 6,
  ttlMs: 5 * MINUTE,
  maxAttempts: 5,
  /** One send per phone per minute. */
  cooldownMs: 60 * SECOND,
  /** Ten sends per phone in any 24 hours (a rolling day, so there is no midnight burst). */
  perPhonePerDay: 10,
  /** Twenty sends per client address per hour, whatever the phone numbers. */
  perIpPerHour: 20,
} as const

/** validateCode's tickets stay usable this long. */
export const TICKET_TTL_MS = 10 * MINUTE

export const SMS_NOT_CONFIGURED = '短信服务未配置，暂时无法发送验证码'

export interface IssueSmsCodeInput {
  mobile: string
  purpose: SmsPurpose
  /** The client address; only its hash is stored. */
  ip: string
  now: Date
}

export interface IssuedSmsCode {
  cooldownSeconds: number
  expiresInSeconds: number
}

function ipRule(ip: string): RateRule {
  return { bucket: `sms-ip:${hashSecret(ip)}`, limit: SMS_LIMITS.perIpPerHour, windowMs: HOUR }
}

/**
 * Sends a fresh 6-digit code. Codes are sent whatever the phone's account state (a 'login' code to
 * an unregistered number, a 'register' code to a registered one): refusing here would tell anyone
 * whether a number has an account. Only the code's hash is stored (salted with the row id).
 */
export async function issueSmsCode(
  db: DB,
  sms: SmsProvider,
  input: IssueSmsCodeInput,
): Promise<IssuedSmsCode> {
  const { mobile, purpose, now } = input
  const recent = await db
    .selectFrom('sms_codes')
    .select('created_at')
    .where('mobile', '=', mobile)
    .where('created_at', '>', isoAfter(now, -DAY))
    .orderBy('created_at', 'desc')
    .limit(SMS_LIMITS.perPhonePerDay)
    .execute()
  const latest = recent[0] ? Date.parse(recent[0].created_at) : undefined
  if (latest !== undefined && now.getTime() - latest < SMS_LIMITS.cooldownMs) {
    const wait = latest + SMS_LIMITS.cooldownMs - now.getTime()
    throw tooManyRequests(`操作过于频繁，请 ${describeWait(wait)}后再获取验证码`)
  }
  if (recent.length >= SMS_LIMITS.perPhonePerDay) {
    const oldest = Date.parse(recent[recent.length - 1]!.created_at)
    throw tooManyRequests(
      `操作过于频繁，该手机号今日获取验证码次数已达上限，请 ${describeWait(oldest + DAY - now.getTime())}后再试`,
    )
  }
  const rule = ipRule(input.ip)
  const ipWait = await rateLimitWait(db, rule, now)
  if (ipWait > 0) {
    throw tooManyRequests(
      `操作过于频繁，当前网络获取验证码次数过多，请 ${describeWait(ipWait)}后再试`,
    )
  }

  const id = randomUUID()
  const code = randomDigits(SMS_LIMITS.codeLength)
  // Sent first: a gateway failure then leaves no row behind to count against the person's limits.
  await sms.send(mobile, purpose, code)
  await db
    .insertInto('sms_codes')
    .values({
      id,
      mobile,
      purpose,
      code_hash: codeHash(id, code),
      attempts: 0,
      expires_at: isoAfter(now, SMS_LIMITS.ttlMs),
      consumed_at: null,
      created_at: now.toISOString(),
      ip_hash: hashSecret(input.ip),
    })
    .execute()
  await recordRateEvent(db, rule, now)
  return {
    cooldownSeconds: SMS_LIMITS.cooldownMs / 1000,
    expiresInSeconds: SMS_LIMITS.ttlMs / 1000,
  }
}

function codeHash(id: string, code: string): string {
  return hashSecret(`${id}:${code}`)
}

export interface ConsumeSmsCodeInput {
  mobile: string
  purpose: SmsPurpose
  code: string
  now: Date
}

/**
 * Checks a code against the latest one sent to the phone for that purpose and uses it up. Only the
 * latest code counts (a resend replaces the previous one). Throws 400 with a Chinese message when
 * there is none, it has expired or was used, it is wrong, or it has had 5 wrong tries.
 */
export async function consumeSmsCode(db: DB, input: ConsumeSmsCodeInput): Promise<void> {
  const at = input.now.toISOString()
  const row = await db
    .selectFrom('sms_codes')
    .selectAll()
    .where('mobile', '=', input.mobile)
    .where('purpose', '=', input.purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!row) throw badRequest('请先获取验证码')
  if (row.consumed_at !== null || row.expires_at <= at) {
    throw badRequest('验证码已失效，请重新获取')
  }
  if (row.attempts >= SMS_LIMITS.maxAttempts) throw badRequest('验证码错误次数过多，请重新获取')
  if (!sameHash(codeHash(row.id, input.code), row.code_hash)) {
    // Conditional increment: concurrent guesses cannot get past the limit.
    const counted = await db
      .updateTable('sms_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .where('attempts', '<', SMS_LIMITS.maxAttempts)
      .executeTakeFirst()
    const left = SMS_LIMITS.maxAttempts - row.attempts - 1
    if (Number(counted.numUpdatedRows) === 0 || left <= 0) {
      throw badRequest('验证码错误次数过多，请重新获取')
    }
    throw badRequest(`验证码错误，还可尝试 ${left} 次`)
  }
  const used = await db
    .updateTable('sms_codes')
    .set({ consumed_at: at })
    .where('id', '=', row.id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst()
  if (Number(used.numUpdatedRows) === 0) throw badRequest('验证码已失效，请重新获取')
}

export interface CodeTicket {
  ticket: string
  expiresInSeconds: number
}

/**
 * validateCode: uses up the code and hands out a single-use ticket (random, stored hashed, 10
 * minutes) that a later step of the same form presents with consumeCodeTicket.
 */
export async function validateSmsCode(db: DB, input: ConsumeSmsCodeInput): Promise<CodeTicket> {
  await consumeSmsCode(db, input)
  const ticket = randomToken()
  await db
    .insertInto('code_tickets')
    .values({
      id: randomUUID(),
      ticket_hash: hashSecret(ticket),
      mobile: input.mobile,
      purpose: input.purpose,
      expires_at: isoAfter(input.now, TICKET_TTL_MS),
      used_at: null,
      created_at: input.now.toISOString(),
    })
    .execute()
  return { ticket, expiresInSeconds: TICKET_TTL_MS / 1000 }
}

/** Uses up a ticket from validateSmsCode; it must be for the same phone and purpose. */
export async function consumeCodeTicket(
  db: DB,
  input: { ticket: string; mobile: string; purpose: SmsPurpose; now: Date },
): Promise<void> {
  const at = input.now.toISOString()
  const used = await db
    .updateTable('code_tickets')
    .set({ used_at: at })
    .where('ticket_hash', '=', hashSecret(input.ticket))
    .where('mobile', '=', input.mobile)
    .where('purpose', '=', input.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst()
  if (Number(used.numUpdatedRows) === 0) throw badRequest('验证已过期，请重新获取验证码')
}

/** The ApiError an unconfigured SMS provider throws (503; the text goes to the operator's log). */
export function smsNotConfigured(): ApiError {
  return new ApiError(503, SMS_NOT_CONFIGURED)
}
