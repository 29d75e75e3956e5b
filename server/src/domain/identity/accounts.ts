import { REASONS } from '@contract/reasons'
import type { Session, SmsPurpose } from '@contract/sso/auth'
import type { DB } from '../../db'
import type { WechatAuth, WechatIdentity } from '../../providers/wechat'
import { ApiError, badRequest, tooManyRequests, unauthorized } from '../../http/errors'
import { CONSENT_CHANNELS, writeConsent } from '../consents'
import { findCurrentPolicy } from '../policies'
import {
  clearLimit,
  clearLimitsWithPrefix,
  clientTag,
  holdUntil,
  type LimitRule,
  phoneTag,
  release,
  releaseAll,
  reserve,
  reserveAll,
  type Slot,
} from '../limits'
import { burnPasswordCheck, hashPassword, verifyPassword } from './secrets'
import { createSession, revokeUserSessions, SESSION_EXPIRED } from './sessions'
import { consumeSmsCode } from './sms'
import { DAY, describeWait, HOUR, MINUTE } from './time'
import { createUser, findUserById, findUserByMobile, findUserByWechatOpenid } from './users'

/**
 * Password login limits, all reserved before the argon2 check (src/domain/limits.ts), so a burst of
 * parallel guesses gets no further than a slow one:
 * - 5 failures per phone AND client (the client's address, IPv6 by /64) lock password login for that
 *   phone from that client; each further lock within a day lasts twice as long (15, 30, 60 … minutes,
 *   at most 4 hours). A stranger's guesses therefore lock the stranger, not the owner on their own
 *   network;
 * - a ceiling of 30 failures per phone per hour from all clients together, against guessing from many
 *   addresses. Six or seven stranger addresses fill it, so it is not the end for the owner: an
 *   SMS-code login lifts it (holding the phone is proof enough to try passwords again), and a reset
 *   by SMS clears every counter of the phone (guesses at the old password say nothing about the new
 *   one). Its refusal says so. Each lift gives strangers at most 30 more guesses, and only when the
 *   owner has just logged in;
 * - 50 failures per client per hour across all phones, which stops trying one common password on many
 *   numbers while leaving room for a hospital's shared network.
 */
export const LOGIN_LOCK = {
  maxFailures: 5,
  lockMs: 15 * MINUTE,
  maxLockMs: 4 * HOUR,
  phoneFailuresPerHour: 30,
  ipFailuresPerHour: 50,
} as const

/** The same text whether or not the phone has an account: login must not reveal which numbers do. */
export const BAD_CREDENTIALS = '手机号或密码错误'
export const MOBILE_UNKNOWN = '该手机号未注册，请先注册'

/** How the lock answer of password login starts; the rest says how long and offers a code login. */
export const LOGIN_LOCKED_TEXT = '密码错误次数过多'

/**
 * Password login refused by a lock (this phone and client, or the phone's hourly ceiling). A type of
 * its own, with the reason `login.locked` (contract/reasons.ts), so callers (the audit log's 'lock'
 * event) tell it from every other 429 (the per-address limit, a busy argon2 gate) without matching
 * the user-facing text. The ceiling's text sends the owner to the two ways that lift it at once (an
 * SMS-code login, a reset): strangers can fill it from enough addresses, so waiting must not be the
 * only answer.
 */
export class LoginLockedError extends ApiError {
  constructor(waitMs: number, scope: 'client' | 'phone' = 'client') {
    super(
      429,
      scope === 'phone'
        ? `${LOGIN_LOCKED_TEXT}，已暂停该手机号的密码登录，请使用验证码登录或找回密码（也可 ${describeWait(waitMs)}后再试）`
        : `${LOGIN_LOCKED_TEXT}，请 ${describeWait(waitMs)}后再试，或使用验证码登录`,
      REASONS.loginLocked,
    )
  }
}

export function isLoginLocked(error: unknown): error is LoginLockedError {
  return error instanceof LoginLockedError
}

function loginRules(mobile: string, ip: string | undefined) {
  const phone = phoneTag(mobile)
  const client = clientTag(ip)
  return {
    perClient: {
      key: `login-ip:${client}`,
      limit: LOGIN_LOCK.ipFailuresPerHour,
      windowMs: HOUR,
    },
    own: {
      key: `login:${phone}:${client}`,
      limit: LOGIN_LOCK.maxFailures,
      windowMs: LOGIN_LOCK.lockMs,
    },
    perPhone: {
      key: `login-phone:${phone}`,
      limit: LOGIN_LOCK.phoneFailuresPerHour,
      windowMs: HOUR,
    },
    lockouts: { key: `login-lockouts:${phone}:${client}`, limit: 1_000_000, windowMs: DAY },
  } satisfies Record<string, LimitRule>
}

/**
 * Password login. Every attempt first reserves a failure slot of each limit; a right password gives
 * them back. The lock is kept for numbers without an account too, and an unknown number costs the
 * same argon2 time, so neither answers nor timing reveal who is registered.
 */
export async function loginWithPassword(
  db: DB,
  input: {
    mobile: string
    password: string
    now: Date
    /** client address, for its limits */ ip?: string
  },
): Promise<Session> {
  const { mobile, now } = input
  const rules = loginRules(mobile, input.ip)
  // Narrowest first: a burst against one phone is refused by its own lock without touching (and
  // briefly filling) the wider counters.
  const taken = await reserveAll(db, [rules.own, rules.perPhone, rules.perClient], now)
  if (!taken.ok) {
    if (taken.rule === rules.perClient) {
      throw tooManyRequests(`操作过于频繁，请 ${describeWait(taken.retryAfterMs)}后再试`)
    }
    throw new LoginLockedError(
      taken.retryAfterMs,
      taken.rule === rules.perPhone ? 'phone' : 'client',
    )
  }
  const [ownSlot, phoneSlot, clientSlot] = taken.slots as [Slot, Slot, Slot]

  let user: Awaited<ReturnType<typeof findUserByMobile>>
  let valid: boolean
  try {
    user = await findUserByMobile(db, mobile)
    valid = user?.password_hash
      ? await verifyPassword(user.password_hash, input.password)
      : await burnPasswordCheck(input.password)
  } catch (error) {
    // Not checked (the argon2 gate was full, or the database failed): the attempt does not count.
    await releaseAll(db, taken.slots)
    throw error
  }
  if (user && valid) {
    await releaseAll(db, [clientSlot, phoneSlot])
    await clearLimit(db, rules.own.key)
    return createSession(db, user.id, now)
  }

  if (ownSlot.remaining === 0) {
    // The last slot went to a failure: lock, longer for each lock of this phone and client today.
    const lockouts = await reserve(db, { ...rules.lockouts, now })
    const nth = lockouts.ok ? lockouts.count : 1
    const lockMs = Math.min(LOGIN_LOCK.maxLockMs, LOGIN_LOCK.lockMs * 2 ** (nth - 1))
    await holdUntil(db, {
      key: rules.own.key,
      limit: LOGIN_LOCK.maxFailures,
      until: new Date(now.getTime() + lockMs),
    })
    throw new LoginLockedError(lockMs)
  }
  throw badRequest(`${BAD_CREDENTIALS}，还可尝试 ${ownSlot.remaining} 次`)
}

/**
 * Lifts password-login locks after the owner proved the phone. With the client's address, that
 * client's lock and the phone's ceiling are lifted (a stranger's lock elsewhere stays, and the
 * stranger's lockout history too); a reset also clears every client's count, since guesses at the old
 * password say nothing about the new one.
 */
async function clearLoginFailures(
  db: DB,
  mobile: string,
  scope: { ip?: string | undefined; everything?: boolean },
): Promise<void> {
  const phone = phoneTag(mobile)
  if (scope.everything || scope.ip === undefined) {
    await clearLimitsWithPrefix(db, `login:${phone}:`)
  } else {
    await clearLimit(db, loginRules(mobile, scope.ip).own.key)
  }
  await clearLimit(db, `login-phone:${phone}`)
  if (scope.everything) {
    await clearLimitsWithPrefix(db, `login-lockouts:${phone}:`)
  }
  // Counters of the version before 0004-limits.
  await db.deleteFrom('login_failures').where('mobile', '=', mobile).execute()
}

/**
 * SMS-code login. The code is checked first, so 该手机号未注册 is only ever told to someone who holds
 * the phone. A successful code also lifts this client's password lock and the phone's password
 * ceiling: the owner has proved who they are.
 */
export async function loginWithSmsCode(
  db: DB,
  input: { mobile: string; code: string; now: Date; ip?: string },
): Promise<Session> {
  await consumeSmsCode(db, { ...input, purpose: 'login' })
  const user = await findUserByMobile(db, input.mobile)
  if (!user) throw badRequest(MOBILE_UNKNOWN)
  await clearLoginFailures(db, input.mobile, { ip: input.ip })
  return createSession(db, user.id, input.now)
}

/** Policy kinds whose current versions a registration agrees to (the checkbox on reg). */
export const REGISTRATION_CONSENTS = ['user', 'privacy'] as const

/**
 * Registration: code first (as for SMS login), then the account, the agreed policy versions and a
 * session. A phone that already has an account answers 该手机号已注册，请直接登录.
 */
export async function registerWithSmsCode(
  db: DB,
  input: { mobile: string; code: string; password: string; now: Date; ip?: string },
): Promise<Session> {
  const { mobile, now } = input
  await consumeSmsCode(db, { mobile, code: input.code, purpose: 'register', now, ip: input.ip })
  const user = await createUser(db, { mobile, password: input.password, now })
  await recordPolicyConsents(db, user.id, CONSENT_CHANNELS.register, now)
  return createSession(db, user.id, now)
}

/** The user agreement and privacy policy in force, agreed by a new account (the consent ledger). */
export async function recordPolicyConsents(db: DB, userId: string, channel: string, now: Date) {
  for (const kind of REGISTRATION_CONSENTS) {
    const policy = await findCurrentPolicy(db, kind)
    if (!policy) continue
    await writeConsent(db, { userId, purpose: kind, version: policy.version, channel }, now)
  }
}

/** Forgotten password: a 'reset' code sets a new one and signs every device out. */
export async function resetPasswordWithSmsCode(
  db: DB,
  input: { mobile: string; code: string; password: string; now: Date; ip?: string },
): Promise<void> {
  const { mobile, now } = input
  await consumeSmsCode(db, { mobile, code: input.code, purpose: 'reset', now, ip: input.ip })
  const user = await findUserByMobile(db, mobile)
  if (!user) throw badRequest(MOBILE_UNKNOWN)
  await setPassword(db, user.id, input.password, now)
  await revokeUserSessions(db, user.id, { now })
  await clearLoginFailures(db, mobile, { everything: true })
}

async function setPassword(db: DB, userId: string, password: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: await hashPassword(password), updated_at: now.toISOString() })
    .where('id', '=', userId)
    .execute()
}

/** Wrong old passwords per account: a stolen session must not become a password-guessing oracle. */
function oldPasswordRule(userId: string): LimitRule {
  return {
    key: `pwd-change:${userId}`,
    limit: LOGIN_LOCK.maxFailures,
    windowMs: LOGIN_LOCK.lockMs,
  }
}

/**
 * Changes the password of the signed-in user. The old password is required when the account has one
 * (a WeChat-only account sets its first); each check reserves a failure slot first, given back when
 * the old password was right. Every session, the caller's included, is revoked, and the caller gets a
 * fresh one, so a token copied before the change is worthless afterwards.
 */
export async function changePassword(
  db: DB,
  input: { userId: string; oldPassword?: string; newPassword: string; now: Date },
): Promise<Session> {
  const { now } = input
  const user = await findUserById(db, input.userId)
  if (!user) throw unauthorized(SESSION_EXPIRED)
  if (user.password_hash) {
    if (!input.oldPassword) throw badRequest('请输入原密码')
    const slot = await reserve(db, { ...oldPasswordRule(user.id), now })
    if (!slot.ok) {
      throw tooManyRequests(`原密码错误次数过多，请 ${describeWait(slot.retryAfterMs)}后再试`)
    }
    let right: boolean
    try {
      right = await verifyPassword(user.password_hash, input.oldPassword)
    } catch (error) {
      await release(db, slot)
      throw error
    }
    if (!right) throw badRequest('原密码错误')
    await release(db, slot)
  }
  await setPassword(db, user.id, input.newPassword, now)
  await revokeUserSessions(db, user.id, { now })
  return createSession(db, user.id, now)
}

// The provider's interface (src/providers/wechat.ts); a real adapter is a drop-in there.
export type { WechatAuth, WechatIdentity }

/** WeChat login: the account bound to the openid, created on first use (as a patient). */
export async function loginWithWechat(
  db: DB,
  wechat: WechatAuth,
  input: { code: string; now: Date },
): Promise<Session> {
  const { openid } = await wechat.exchangeCode(input.code)
  const known = await findUserByWechatOpenid(db, openid)
  if (known) return createSession(db, known.id, input.now)
  // A first WeChat login makes the account: the login page had the person agree to the policies
  // in force (its 同意 tick gates the WeChat button), recorded as at registration.
  const user = await createUser(db, { wechatOpenid: openid, now: input.now })
  await recordPolicyConsents(db, user.id, CONSENT_CHANNELS.wechatLogin, input.now)
  return createSession(db, user.id, input.now)
}

export type { SmsPurpose }
