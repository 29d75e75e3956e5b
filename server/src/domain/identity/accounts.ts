import { randomUUID } from 'node:crypto'
import type { Session, SmsPurpose } from '@contract/sso/auth'
import type { DB } from '../../db'
import { badRequest, tooManyRequests, unauthorized } from '../../http/errors'
import { findCurrentPolicy } from '../policies'
import { rateLimitWait, recordRateEvent, type RateRule } from './rate-limit'
import { burnPasswordCheck, hashPassword, hashSecret, verifyPassword } from './secrets'
import { createSession, revokeUserSessions, SESSION_EXPIRED } from './sessions'
import { consumeSmsCode } from './sms'
import { describeWait, HOUR, isoAfter, MINUTE } from './time'
import { createUser, findUserById, findUserByMobile, findUserByWechatOpenid } from './users'

/**
 * Password login: 5 wrong passwords for a phone lock it for 15 minutes. One client address may fail
 * 50 times an hour across all phones, which stops trying one common password on many numbers while
 * leaving room for a hospital's shared network.
 */
export const LOGIN_LOCK = { maxFailures: 5, lockMs: 15 * MINUTE, ipFailuresPerHour: 50 } as const

function loginIpRule(ip: string): RateRule {
  return {
    bucket: `login-fail-ip:${hashSecret(ip)}`,
    limit: LOGIN_LOCK.ipFailuresPerHour,
    windowMs: HOUR,
  }
}

/** The same text whether or not the phone has an account: login must not reveal which numbers do. */
export const BAD_CREDENTIALS = '手机号或密码错误'
export const MOBILE_UNKNOWN = '该手机号未注册，请先注册'

function lockedMessage(waitMs: number): string {
  return `密码错误次数过多，请 ${describeWait(waitMs)}后再试，或使用验证码登录`
}

/**
 * Password login with a per-phone lock. The lock is kept for numbers without an account too, and an
 * unknown number costs the same argon2 time, so neither answers nor timing reveal who is registered.
 */
export async function loginWithPassword(
  db: DB,
  input: {
    mobile: string
    password: string
    now: Date
    /** client address, for its limit */ ip?: string
  },
): Promise<Session> {
  const { mobile, now } = input
  const at = now.toISOString()
  const ipRule = input.ip ? loginIpRule(input.ip) : undefined
  const ipWait = ipRule ? await rateLimitWait(db, ipRule, now) : 0
  if (ipWait > 0) throw tooManyRequests(`操作过于频繁，请 ${describeWait(ipWait)}后再试`)
  const record = await db
    .selectFrom('login_failures')
    .selectAll()
    .where('mobile', '=', mobile)
    .executeTakeFirst()
  if (record?.locked_until && record.locked_until > at) {
    throw tooManyRequests(lockedMessage(Date.parse(record.locked_until) - now.getTime()))
  }
  const user = await findUserByMobile(db, mobile)
  const valid = user?.password_hash
    ? await verifyPassword(user.password_hash, input.password)
    : await burnPasswordCheck(input.password)
  if (user && valid) {
    await clearLoginFailures(db, mobile)
    return createSession(db, user.id, now)
  }

  if (ipRule) await recordRateEvent(db, ipRule, now)
  // A lock that has run out starts a fresh count.
  const failures = (record && !record.locked_until ? record.failures : 0) + 1
  const locked = failures >= LOGIN_LOCK.maxFailures
  const values = {
    failures: locked ? 0 : failures,
    locked_until: locked ? isoAfter(now, LOGIN_LOCK.lockMs) : null,
    updated_at: at,
  }
  await db
    .insertInto('login_failures')
    .values({ mobile, ...values })
    .onConflict((oc) => oc.column('mobile').doUpdateSet(values))
    .execute()
  if (locked) throw tooManyRequests(lockedMessage(LOGIN_LOCK.lockMs))
  throw badRequest(`${BAD_CREDENTIALS}，还可尝试 ${LOGIN_LOCK.maxFailures - failures} 次`)
}

async function clearLoginFailures(db: DB, mobile: string): Promise<void> {
  await db.deleteFrom('login_failures').where('mobile', '=', mobile).execute()
}

/**
 * SMS-code login. The code is checked first, so 该手机号未注册 is only ever told to someone who holds
 * the phone. A successful code also lifts a password lock: the owner has proved who they are.
 */
export async function loginWithSmsCode(
  db: DB,
  input: { mobile: string; code: string; now: Date },
): Promise<Session> {
  await consumeSmsCode(db, { ...input, purpose: 'login' })
  const user = await findUserByMobile(db, input.mobile)
  if (!user) throw badRequest(MOBILE_UNKNOWN)
  await clearLoginFailures(db, input.mobile)
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
  input: { mobile: string; code: string; password: string; now: Date },
): Promise<Session> {
  const { mobile, now } = input
  await consumeSmsCode(db, { mobile, code: input.code, purpose: 'register', now })
  const user = await createUser(db, { mobile, password: input.password, now })
  for (const kind of REGISTRATION_CONSENTS) {
    const policy = await findCurrentPolicy(db, kind)
    if (!policy) continue
    await db
      .insertInto('consents')
      .values({
        id: randomUUID(),
        user_id: user.id,
        kind,
        version: policy.version,
        created_at: now.toISOString(),
      })
      .execute()
  }
  return createSession(db, user.id, now)
}

/** Forgotten password: a 'reset' code sets a new one and signs every device out. */
export async function resetPasswordWithSmsCode(
  db: DB,
  input: { mobile: string; code: string; password: string; now: Date },
): Promise<void> {
  const { mobile, now } = input
  await consumeSmsCode(db, { mobile, code: input.code, purpose: 'reset', now })
  const user = await findUserByMobile(db, mobile)
  if (!user) throw badRequest(MOBILE_UNKNOWN)
  await setPassword(db, user.id, input.password, now)
  await revokeUserSessions(db, user.id, { now })
  await clearLoginFailures(db, mobile)
}

async function setPassword(db: DB, userId: string, password: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: await hashPassword(password), updated_at: now.toISOString() })
    .where('id', '=', userId)
    .execute()
}

/** Wrong old passwords per account: a stolen session must not become a password-guessing oracle. */
function oldPasswordRule(userId: string): RateRule {
  return {
    bucket: `pwd-change:${userId}`,
    limit: LOGIN_LOCK.maxFailures,
    windowMs: LOGIN_LOCK.lockMs,
  }
}

/**
 * Changes the password of the signed-in user. The old password is required when the account has one
 * (a WeChat-only account sets its first). Every session, the caller's included, is revoked, and the
 * caller gets a fresh one, so a token copied before the change is worthless afterwards.
 */
export async function changePassword(
  db: DB,
  input: { userId: string; oldPassword?: string; newPassword: string; now: Date },
): Promise<Session> {
  const { now } = input
  const user = await findUserById(db, input.userId)
  if (!user) throw unauthorized(SESSION_EXPIRED)
  if (user.password_hash) {
    const rule = oldPasswordRule(user.id)
    const wait = await rateLimitWait(db, rule, now)
    if (wait > 0) throw tooManyRequests(`原密码错误次数过多，请 ${describeWait(wait)}后再试`)
    if (!input.oldPassword) throw badRequest('请输入原密码')
    if (!(await verifyPassword(user.password_hash, input.oldPassword))) {
      await recordRateEvent(db, rule, now)
      throw badRequest('原密码错误')
    }
  }
  await setPassword(db, user.id, input.newPassword, now)
  await revokeUserSessions(db, user.id, { now })
  return createSession(db, user.id, now)
}

/** What a WeChat code exchange yields (jscode2session). */
export interface WechatIdentity {
  openid: string
  unionid?: string
}

/**
 * Turns a weapp `Taro.login` code into a WeChat identity. The embedded default says 未配置微信登录;
 * a real adapter calling jscode2session is a drop-in (src/providers/wechat.ts).
 */
export interface WechatAuth {
  exchangeCode(code: string): Promise<WechatIdentity>
}

/** WeChat login: the account bound to the openid, created on first use (as a patient). */
export async function loginWithWechat(
  db: DB,
  wechat: WechatAuth,
  input: { code: string; now: Date },
): Promise<Session> {
  const { openid } = await wechat.exchangeCode(input.code)
  const user =
    (await findUserByWechatOpenid(db, openid)) ??
    (await createUser(db, { wechatOpenid: openid, now: input.now }))
  return createSession(db, user.id, input.now)
}

export type { SmsPurpose }
