import { randomUUID } from 'node:crypto'
import type { SmsPurpose } from '@contract/sso/auth'
import type { DB } from '../../db'
import { badRequest, tooManyRequests } from '../../http/errors'
import {
  clientTag,
  type LimitRule,
  phoneTag,
  release,
  releaseAll,
  reserve,
  reserveAll,
  type Slot,
} from '../limits'
import {
  outboxMobileKey,
  SMS_NOT_CONFIGURED,
  type SmsProvider,
  smsNotConfigured,
} from '../../providers/sms'
import { hashSecret, keyedHash, randomDigits, randomToken, sameHash } from './secrets'
import { DAY, describeWait, HOUR, isoAfter, MINUTE, SECOND } from './time'

/**
 * Limits of SPEC section 9 and the accounts issue (server/README.md, "Identity"). All are reserved
 * before the gateway is called (src/domain/limits.ts) and given back if it fails; windows are fixed
 * and start at the first send.
 *
 * Sending is counted per phone AND client network (address, IPv6 /64), so a stranger's requests use
 * up the stranger's quota, not the owner's:
 * - one send per phone and purpose per 60 s (phone-wide: it bounds how fast anyone makes the phone
 *   ring, and a stranger holding it only delays the owner by a minute, with the stranger's code
 *   arriving on the owner's phone anyway);
 * - 5 sends a day per phone and client over all purposes (an owner needs a login, a resend, a reset);
 * - 50 a day per phone from all clients together, against SMS bombing. Ten attacker networks are
 *   needed to reach it (10 × 5), and when it is reached the owner still has a way: a client that has
 *   sent nothing to this phone in its day may still get a `reset` or `login` code through the ceiling,
 *   one per purpose per 10 minutes for the phone. A stranger keeps that lane closed only by spending a
 *   fresh network every 10 minutes (144 a day per purpose), and bombing through it is 12 an hour;
 * - 20 sends per client per hour, whatever the phones.
 *
 * Checking a code (consumeSmsCode): a code is compared at most 5 times per client network, and at
 * most 20 times from all clients other than the one that asked for it together; the client that asked
 * for it keeps its own 5 whatever others do, so strangers guessing from elsewhere cannot make the
 * owner's code unusable. Each code is one of 10^6 values, so one code falls with a chance of at most
 * 25 in 10^6 (1 in 40 000). A client may get at most 30 wrong or refused checks an hour across all
 * phones (a right code gives its slot back), so one attacker network makes at most 720 guesses a day,
 * whatever the phones: a 0.07 % chance a day of guessing any code at all. Against one phone, guesses
 * at codes another client asked for are capped at 50 a day per purpose, and guesses at codes the
 * guesser asked for itself at 5 × its 5 sends a day, at most 50 codes a day for the phone: about
 * 300 in 10^6 (0.03 %) a day per purpose even with ten networks, every code of which rings the
 * owner's phone. The owner, checking the code its own client asked for, is never subject to the cap.
 */
export const SMS_LIMITS = {
  codeLength: 6,
  ttlMs: 5 * MINUTE,
  /** Tries per code and client network. */
  maxAttempts: 5,
  /** Tries per code from every client except the one that asked for it, together. */
  maxAttemptsPerCode: 20,
  /** Tries per phone and purpose a day from clients that did not ask for the code they check. */
  othersPerPhonePerDay: 50,
  /** Checks per client network per hour over all phones (right codes give theirs back). */
  checksPerClientPerHour: 30,
  /** One send per phone and purpose per minute. */
  cooldownMs: 60 * SECOND,
  /** Sends per phone and client network a day, over all purposes. */
  perPhoneClientPerDay: 5,
  /** Sends per phone a day from all clients together (the bombing ceiling). */
  perPhonePerDay: 50,
  /** Beyond the ceiling: one reset or login code per purpose per phone per 10 minutes, fresh clients only. */
  overCeilingEveryMs: 10 * MINUTE,
  /** Twenty sends per client (address, IPv6 /64) per hour, whatever the phone numbers. */
  perIpPerHour: 20,
} as const

/** Purposes whose codes still pass the phone-wide ceiling (slowly): the owner's ways back in. */
const RECOVERY_PURPOSES: readonly SmsPurpose[] = ['reset', 'login']

/**
 * Purposes that only the signed-in owner may ask for, sent to the account's own phone by sendOwnCode:
 * a code to delete an account or to prove the current phone means nothing when anyone can make the
 * phone receive it.
 */
export const OWN_PHONE_PURPOSES: readonly SmsPurpose[] = ['delete', 'verify-old', 'report-unlock']

/** The 400 of the unauthenticated send routes for an own-phone purpose. */
export const OWN_PHONE_ONLY = '该验证码只能在登录后发送到当前账号的手机号'

/**
 * Purposes whose phone the server chooses, never the caller: a `claim` code goes only to the phone a
 * hospital recorded for an exam (src/domain/claims/claims.ts); a `family` code only to the phone of
 * the adult being added as a family member (src/domain/family/members.ts).
 */
export const FLOW_ONLY_PURPOSES: readonly SmsPurpose[] = ['claim', 'family']
export const FLOW_ONLY = '该验证码只能在影像查询、扫码领取或添加家人时发送'

/** Refuses own-phone purposes on a route where the phone is whatever the caller typed. */
export function assertPublicPurpose(purpose: SmsPurpose): void {
  if (OWN_PHONE_PURPOSES.includes(purpose)) throw badRequest(OWN_PHONE_ONLY)
  if (FLOW_ONLY_PURPOSES.includes(purpose)) throw badRequest(FLOW_ONLY)
}

/** validateCode's tickets stay usable this long. */
export const TICKET_TTL_MS = 10 * MINUTE

export interface IssueSmsCodeInput {
  mobile: string
  purpose: SmsPurpose
  /** Who the code is for, when not the phone's own holder (codeHash). */
  scope?: string
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
  const client = clientTag(ip)
  return {
    cooldown: { key: `sms-cool:${purpose}:${phone}`, limit: 1, windowMs: SMS_LIMITS.cooldownMs },
    phoneClient: {
      key: `sms-pc:${phone}:${client}`,
      limit: SMS_LIMITS.perPhoneClientPerDay,
      windowMs: DAY,
    },
    client: { key: `sms-ip:${client}`, limit: SMS_LIMITS.perIpPerHour, windowMs: HOUR },
    phone: { key: `sms-phone:${phone}`, limit: SMS_LIMITS.perPhonePerDay, windowMs: DAY },
    overCeiling: {
      key: `sms-over:${purpose}:${phone}`,
      limit: 1,
      windowMs: SMS_LIMITS.overCeilingEveryMs,
    },
  } satisfies Record<string, LimitRule>
}

/**
 * Sends a fresh 6-digit code. Codes are sent whatever the phone's account state (a 'login' code to
 * an unregistered number, a 'register' code to a registered one): refusing here would tell anyone
 * whether a number has an account. Every limit is reserved before the code is sent, and given back
 * if the gateway fails. Only a keyed hash of the code is stored (with the row id and the client).
 */
export async function issueSmsCode(
  db: DB,
  sms: SmsProvider,
  input: IssueSmsCodeInput,
): Promise<IssuedSmsCode> {
  const { mobile, purpose, now } = input
  const rules = sendRules(mobile, purpose, input.ip)
  const taken = await reserveAll(db, [rules.cooldown, rules.phoneClient, rules.client], now)
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
  const slots = [...taken.slots]
  const phoneWide = await reserve(db, { ...rules.phone, now })
  if (phoneWide.ok) {
    slots.push(phoneWide)
  } else {
    // The phone-wide ceiling is full. A client sending its first code of the day to this phone (its
    // per-phone count is this send) may still get a way back in, slowly; everyone else waits.
    const firstFromClient = (taken.slots[1] as Slot).count === 1
    const lane =
      firstFromClient && RECOVERY_PURPOSES.includes(purpose)
        ? await reserve(db, { ...rules.overCeiling, now })
        : undefined
    if (!lane?.ok) {
      await releaseAll(db, slots)
      const wait = describeWait(lane ? lane.retryAfterMs : phoneWide.retryAfterMs)
      throw tooManyRequests(`操作过于频繁，该手机号今日获取验证码次数已达上限，请 ${wait}后再试`)
    }
    slots.push(lane)
  }

  const id = randomUUID()
  const code = randomDigits(SMS_LIMITS.codeLength)
  try {
    await sms.send(mobile, purpose, code)
  } catch (error) {
    // Not sent: nothing counts against the person's limits.
    await releaseAll(db, slots)
    throw error
  }
  await db
    .insertInto('sms_codes')
    .values({
      id,
      mobile,
      purpose,
      code_hash: codeHash(id, code, input.scope),
      attempts: 0,
      expires_at: isoAfter(now, SMS_LIMITS.ttlMs),
      consumed_at: null,
      created_at: now.toISOString(),
      ip_hash: clientTag(input.ip),
      scope: input.scope ?? null,
    })
    .execute()
  return {
    cooldownSeconds: SMS_LIMITS.cooldownMs / 1000,
    expiresInSeconds: SMS_LIMITS.ttlMs / 1000,
  }
}

/**
 * A code asked for on someone's behalf (`scope`: the family code's asking account) is hashed with
 * it, so the code works only for the one who asked: another account that learns it gets 验证码错误.
 */
function codeHash(id: string, code: string, scope?: string): string {
  return keyedHash('sms-code', scope === undefined ? `${id}:${code}` : `${id}:${code}:${scope}`)
}

export interface ConsumeSmsCodeInput {
  mobile: string
  purpose: SmsPurpose
  /** As given when the code was issued. */
  scope?: string
  code: string
  now: Date
  /**
   * The client address (only a keyed hash of its network is used). Every route passes it; without
   * one (a call from inside the server) the check counts as the shared `unknown` client.
   */
  ip?: string | undefined
}

const TOO_MANY_TRIES = '验证码错误次数过多，请重新获取'

function checkRules(codeId: string, client: string, mobile: string, purpose: SmsPurpose) {
  return {
    own: {
      key: `sms-try:${codeId}:${client}`,
      limit: SMS_LIMITS.maxAttempts,
      windowMs: SMS_LIMITS.ttlMs,
    },
    others: {
      key: `sms-try-all:${codeId}`,
      limit: SMS_LIMITS.maxAttemptsPerCode,
      windowMs: SMS_LIMITS.ttlMs,
    },
    othersPerPhone: {
      key: `sms-try-phone:${purpose}:${phoneTag(mobile)}`,
      limit: SMS_LIMITS.othersPerPhonePerDay,
      windowMs: DAY,
    },
    client: {
      key: `sms-check-ip:${client}`,
      limit: SMS_LIMITS.checksPerClientPerHour,
      windowMs: HOUR,
    },
  } satisfies Record<string, LimitRule>
}

/**
 * Checks a code and uses it up. The code checked is the latest live one this client network asked
 * for (a resend replaces the previous one), or, when it has none, the latest one of the phone and
 * purpose: a stranger's send cannot replace the owner's code. Before the comparison each try takes
 * a slot of every limit (reserve first, src/domain/limits.ts), so parallel guesses compare no more
 * than the limits allow: 5 per code and client, 20 per code from all clients but the one that asked
 * for it (that one keeps its own 5, so strangers cannot use the owner's code up), 50 a day per phone
 * and purpose from such other clients, 30 wrong checks per client an hour across phones
 * (SMS_LIMITS). Throws 400 with a Chinese message when there is no code, it has expired or was used,
 * it is wrong, or its tries are used up; 429 for the client's hourly limit.
 */
export async function consumeSmsCode(db: DB, input: ConsumeSmsCodeInput): Promise<void> {
  const { now } = input
  const at = now.toISOString()
  const client = clientTag(input.ip)
  const latest = (ownLive: boolean) => {
    let query = db
      .selectFrom('sms_codes')
      .select(['id', 'code_hash', 'ip_hash', 'consumed_at', 'expires_at'])
      .where('mobile', '=', input.mobile)
      .where('purpose', '=', input.purpose)
      // A code asked for by one account never answers for another (the family code's scope).
      .where('scope', input.scope === undefined ? 'is' : '=', input.scope ?? null)
    if (ownLive) {
      query = query
        .where('ip_hash', '=', client)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', at)
    }
    return query.orderBy('created_at', 'desc').limit(1).executeTakeFirst()
  }
  // This client's own live code first; else the phone's latest (asked for on another device, or
  // used / expired, which the answer then says).
  const row = (await latest(true)) ?? (await latest(false))
  if (!row) throw badRequest('请先获取验证码')
  if (row.consumed_at !== null || row.expires_at <= at) {
    throw badRequest('验证码已失效，请重新获取')
  }
  const rules = checkRules(row.id, client, input.mobile, input.purpose)
  const asker = row.ip_hash === client
  const taken = await reserveAll(
    db,
    asker
      ? [rules.own, rules.client]
      : [rules.own, rules.others, rules.othersPerPhone, rules.client],
    now,
  )
  if (!taken.ok) {
    if (taken.rule === rules.client) {
      throw tooManyRequests(
        `操作过于频繁，当前网络验证码错误次数过多，请 ${describeWait(taken.retryAfterMs)}后再试`,
      )
    }
    throw badRequest(TOO_MANY_TRIES)
  }
  // For the record only (how often the code was compared); the limits above decide.
  await db
    .updateTable('sms_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', row.id)
    .execute()
  if (!sameHash(codeHash(row.id, input.code, input.scope), row.code_hash)) {
    const left = Math.min(...taken.slots.slice(0, -1).map((slot) => slot.remaining))
    // The last wrong try was compared too; it says so, unlike a try refused without a comparison.
    if (left <= 0) throw badRequest('验证码错误，次数已用完，请重新获取')
    throw badRequest(`验证码错误，还可尝试 ${left} 次`)
  }
  const used = await db
    .updateTable('sms_codes')
    .set({ consumed_at: at })
    .where('id', '=', row.id)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst()
  if (Number(used.numUpdatedRows) === 0) throw badRequest('验证码已失效，请重新获取')
  // A right code is not a guess: it gives back the client's hourly slot.
  await release(db, taken.slots.at(-1) as Slot)
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

// The provider's side (its interface, the outbox's phone key, the unconfigured answer) is src/providers/sms.ts.
export { outboxMobileKey, SMS_NOT_CONFIGURED, type SmsProvider, smsNotConfigured }
