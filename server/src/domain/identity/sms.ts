import { randomUUID } from 'node:crypto'
import type { SmsPurpose } from '@contract/sso/auth'
import type { DB } from '../../db'
import { ApiError, badRequest, tooManyRequests } from '../../http/errors'
import { clientTag, type LimitRule, phoneTag, releaseAll, reserveAll } from '../limits'
import { hashSecret, keyedHash, randomDigits, randomToken, sameHash } from './secrets'
import { DAY, describeWait, HOUR, isoAfter, MINUTE, SECOND } from './time'

/**
 * Delivers a verification code. The embedded default is the outbox (src/providers/sms.ts); a real
 * gateway is another implementation. `send` throws when the message was not handed over.
 */
export interface SmsProvider {
  send(mobile: string, purpose: SmsPurpose, code: string): Promise<void>
}

/**
 * Limits of SPEC section 9 and the accounts issue. Each purpose (login, register, reset, bind, delete,
 * merge) has its own cooldown and daily count, so a flood of login codes does not block a reset code;
 * a phone-wide daily ceiling bounds what anyone can make a phone receive, and a password reset is
 * outside it (recovery must stay possible). Windows are fixed and start at the first send
 * (src/domain/limits.ts).
 */
export const SMS_LIMITS = {
  codeLength: 6,
  ttlMs: 5 * MINUTE,
  maxAttempts: 5,
  /** One send per phone and purpose per minute. */
  cooldownMs: 60 * SECOND,
  /** Ten sends per phone and purpose a day (the day starts at the first send, not at midnight). */
  perPhonePerDay: 10,
  /** Twenty sends per phone a day over all purposes but reset. */
  perPhoneAllPurposesPerDay: 20,
  /** Twenty sends per client (address, IPv6 /64) per hour, whatever the phone numbers. */
  perIpPerHour: 20,
} as const

/** validateCode's tickets stay usable this long. */
export const TICKET_TTL_MS = 10 * MINUTE

export const SMS_NOT_CONFIGURED = '短信服务未配置，暂时无法发送验证码'

export interface IssueSmsCodeInput {
  mobile: string
  purpose: SmsPurpose
  /** The client address; only a keyed hash of its network is stored. */
  ip: string
  now: Date
}

export interface IssuedSmsCode {
  cooldownSeconds: number
  expiresInSeconds: number
}

function sendRules(mobile: string, purpose: SmsPurpose, ip: string) {
  const phone = phoneTag(mobile)
  return {
    cooldown: { key: `sms-cool:${purpose}:${phone}`, limit: 1, windowMs: SMS_LIMITS.cooldownMs },
    day: { key: `sms-day:${purpose}:${phone}`, limit: SMS_LIMITS.perPhonePerDay, windowMs: DAY },
    phone: {
      key: `sms-phone:${phone}`,
      limit: SMS_LIMITS.perPhoneAllPurposesPerDay,
      windowMs: DAY,
    },
    client: { key: `sms-ip:${clientTag(ip)}`, limit: SMS_LIMITS.perIpPerHour, windowMs: HOUR },
  } satisfies Record<string, LimitRule>
}

/**
 * Sends a fresh 6-digit code. Codes are sent whatever the phone's account state (a 'login' code to
 * an unregistered number, a 'register' code to a registered one): refusing here would tell anyone
 * whether a number has an account. Every limit is reserved before the code is sent, and given back
 * if the gateway fails. Only a keyed hash of the code is stored (with the row id).
 */
export async function issueSmsCode(
  db: DB,
  sms: SmsProvider,
  input: IssueSmsCodeInput,
): Promise<IssuedSmsCode> {
  const { mobile, purpose, now } = input
  const rules = sendRules(mobile, purpose, input.ip)
  const order = [
    rules.cooldown,
    rules.day,
    ...(purpose === 'reset' ? [] : [rules.phone]),
    rules.client,
  ]
  const taken = await reserveAll(db, order, now)
  if (!taken.ok) {
    const wait = describeWait(taken.retryAfterMs)
    if (taken.rule === rules.cooldown) {
      throw tooManyRequests(`操作过于频繁，请 ${wait}后再获取验证码`)
    }
    if (taken.rule === rules.client) {
      throw tooManyRequests(`操作过于频繁，当前网络获取验证码次数过多，请 ${wait}后再试`)
    }
    throw tooManyRequests(`操作过于频繁，该手机号今日获取验证码次数已达上限，请 ${wait}后再试`)
  }

  const id = randomUUID()
  const code = randomDigits(SMS_LIMITS.codeLength)
  try {
    await sms.send(mobile, purpose, code)
  } catch (error) {
    // Not sent: nothing counts against the person's limits.
    await releaseAll(db, taken.slots)
    throw error
  }
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
      ip_hash: clientTag(input.ip),
    })
    .execute()
  return {
    cooldownSeconds: SMS_LIMITS.cooldownMs / 1000,
    expiresInSeconds: SMS_LIMITS.ttlMs / 1000,
  }
}

/** How the SMS outbox (src/providers/sms.ts) names a phone: a keyed HMAC, never the number. */
export function outboxMobileKey(mobile: string): string {
  return keyedHash('outbox-mobile', mobile)
}

function codeHash(id: string, code: string): string {
  return keyedHash('sms-code', `${id}:${code}`)
}

export interface ConsumeSmsCodeInput {
  mobile: string
  purpose: SmsPurpose
  code: string
  now: Date
}

const TOO_MANY_TRIES = '验证码错误次数过多，请重新获取'

/**
 * Checks a code against the latest one sent to the phone for that purpose and uses it up. Only the
 * latest code counts (a resend replaces the previous one). Each try first takes one of the code's 5
 * tries (an atomic conditional increment), then compares: parallel guesses cannot compare more than 5
 * codes. Throws 400 with a Chinese message when there is none, it has expired or was used, it is
 * wrong, or its tries are used up.
 */
export async function consumeSmsCode(db: DB, input: ConsumeSmsCodeInput): Promise<void> {
  const at = input.now.toISOString()
  const row = await db
    .selectFrom('sms_codes')
    .select(['id', 'code_hash'])
    .where('mobile', '=', input.mobile)
    .where('purpose', '=', input.purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!row) throw badRequest('请先获取验证码')
  const tried = await db
    .updateTable('sms_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', row.id)
    .where('attempts', '<', SMS_LIMITS.maxAttempts)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', at)
    .returning('attempts')
    .executeTakeFirst()
  if (!tried) {
    const state = await db
      .selectFrom('sms_codes')
      .select(['attempts', 'consumed_at', 'expires_at'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow()
    if (state.consumed_at !== null || state.expires_at <= at) {
      throw badRequest('验证码已失效，请重新获取')
    }
    throw badRequest(TOO_MANY_TRIES)
  }
  if (!sameHash(codeHash(row.id, input.code), row.code_hash)) {
    const left = SMS_LIMITS.maxAttempts - Number(tried.attempts)
    // The fifth wrong try was compared too; it says so, unlike a try refused without a comparison.
    if (left <= 0) throw badRequest('验证码错误，次数已用完，请重新获取')
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
