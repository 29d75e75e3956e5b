import { randomUUID } from 'node:crypto'
import type { UserProfile } from '@contract/sso/auth'
import { REASONS } from '@contract/reasons'
import type { DB } from '../../db'
import { badRequest, conflict, tooManyRequests, unauthorized } from '../../http/errors'
import {
  consumeSmsCode,
  describeWait,
  findUserById,
  findUserByMobile,
  isUniqueViolation,
  loadProfile,
  MINUTE,
  revokeUserSessions,
  SESSION_EXPIRED,
  verifyPassword,
  type User,
} from '../identity'
import { forgetAiAnalysesOf } from '../ai'
import { forgetExpertOf } from '../experts'
import { forgetFamilyOf, mergeFamily } from '../family'
import { type LimitRule, release, reserve } from '../limits'
import { outboxMobileKey } from '../identity'
import { forgetPhoneLimits } from '../limits'
import { AVATAR_URL_REFUSED, isOwnAvatar, removeStoredFiles } from './avatars'

export const MOBILE_IN_USE = '该手机号已被其他账号使用'
export const SAME_MOBILE = '新手机号与当前手机号相同'
export const NO_MOBILE_FOR_DELETE = '请先绑定手机号，再通过短信验证码注销账号'
export const DELETED_NICKNAME = '已注销用户'

async function liveUser(db: DB, userId: string): Promise<User> {
  const user = await findUserById(db, userId)
  // The session was valid a moment ago; the account was deleted or merged in between.
  if (!user) throw unauthorized(SESSION_EXPIRED)
  return user
}

export interface ProfileChanges {
  nickname?: string
  avatarUrl?: string | null
  gender?: 'male' | 'female' | 'unknown'
}

/**
 * Edits the profile. An avatar must be one this person uploaded (POST /main/upload/avatar): other
 * people see avatars, so an arbitrary URL would let an account make them load any address.
 */
export async function modifyUser(
  db: DB,
  userId: string,
  changes: ProfileChanges,
  now: Date,
): Promise<UserProfile> {
  await liveUser(db, userId)
  if (changes.avatarUrl && !(await isOwnAvatar(db, userId, changes.avatarUrl))) {
    throw badRequest(AVATAR_URL_REFUSED)
  }
  const set = {
    ...(changes.nickname !== undefined ? { nickname: changes.nickname } : {}),
    ...(changes.avatarUrl !== undefined ? { avatar_url: changes.avatarUrl } : {}),
    ...(changes.gender !== undefined ? { gender: changes.gender } : {}),
  }
  if (Object.keys(set).length > 0) {
    await db
      .updateTable('users')
      .set({ ...set, updated_at: now.toISOString() })
      .where('id', '=', userId)
      .execute()
  }
  return loadProfile(db, await liveUser(db, userId))
}

export const PROOF_REQUIRED = '请先验证身份：输入登录密码，或获取原手机号的验证码'
export const PROOF_WRONG_PASSWORD = '登录密码错误'
export const PROOF_NO_PASSWORD = '当前账号未设置密码，请使用原手机号验证码验证'
export const PROOF_NO_MOBILE = '当前账号未绑定手机号，请使用登录密码验证'
export const MERGE_PASSWORD_REQUIRED = '请输入该手机号账号的登录密码'
export const MERGE_WRONG_PASSWORD = '该手机号账号的登录密码错误'

/** What proves the person at the keyboard is the account's owner, not just someone holding its session. */
export interface IdentityProof {
  /** The account's login password. */
  password?: string | undefined
  /** A 'verify-old' code sent to the account's current phone (sendOwnCode). */
  oldCode?: string | undefined
}

/** Wrong passwords given as proof, per account: a stolen session must not become a guessing oracle. */
export const PROOF_PASSWORD_LIMIT = { limit: 5, windowMs: 15 * MINUTE } as const

function proofRule(userId: string): LimitRule {
  return { key: `identity-proof:${userId}`, ...PROOF_PASSWORD_LIMIT }
}

/**
 * Reserve first, then check (domain/limits.ts): a burst of guesses cannot all pass the count while
 * argon2 runs. A right password gives its slot back.
 */
async function checkPassword(
  db: DB,
  rule: LimitRule,
  passwordHash: string,
  password: string,
  wrong: string,
  now: Date,
): Promise<void> {
  const slot = await reserve(db, { ...rule, now })
  if (!slot.ok) {
    throw tooManyRequests(`密码错误次数过多，请 ${describeWait(slot.retryAfterMs)}后再试`)
  }
  let valid: boolean
  try {
    valid = await verifyPassword(passwordHash, password)
  } catch (error) {
    await release(db, slot)
    throw error
  }
  if (valid) {
    await release(db, slot)
    return
  }
  throw badRequest(wrong)
}

/**
 * A session alone does not allow changing who the account is (a phone left unlocked, a copied
 * token): the person proves it with the password or a code to the CURRENT phone. An account with
 * neither (a WeChat-only account without a password) has nothing more to prove than its WeChat login.
 */
export async function proveIdentity(
  db: DB,
  user: User,
  proof: IdentityProof,
  now: Date,
  /** The client address, for the code-check limits (consumeSmsCode). */
  ip?: string,
): Promise<void> {
  if (proof.oldCode) {
    if (!user.mobile) throw badRequest(PROOF_NO_MOBILE)
    await consumeSmsCode(db, {
      mobile: user.mobile,
      purpose: 'verify-old',
      code: proof.oldCode,
      now,
      ip,
    })
    return
  }
  if (proof.password) {
    if (!user.password_hash) throw badRequest(PROOF_NO_PASSWORD)
    await checkPassword(
      db,
      proofRule(user.id),
      user.password_hash,
      proof.password,
      PROOF_WRONG_PASSWORD,
      now,
    )
    return
  }
  if (user.mobile || user.password_hash) throw badRequest(PROOF_REQUIRED)
}

export interface IdentityChangeOptions {
  /** The caller's session, kept when every other session of the account is signed out. */
  keepSessionId?: string | undefined
  /** The client address, for the code-check limits (consumeSmsCode). */
  ip?: string | undefined
}

/**
 * Binds or changes the phone number. First the person proves the current identity (password or a
 * 'verify-old' code to the old phone), then the code sent to the NEW number (purpose 'bind') proves
 * holding it; both come before any answer about the new number, so nobody learns whether a number has
 * an account without holding that phone. Every other session is signed out afterwards; telling the
 * old phone is the caller's (route's) job, as it owns the SMS provider.
 */
export async function bindPhone(
  db: DB,
  userId: string,
  input: { mobile: string; code: string } & IdentityProof,
  now: Date,
  options: IdentityChangeOptions = {},
): Promise<UserProfile> {
  const user = await liveUser(db, userId)
  if (user.mobile === input.mobile) throw badRequest(SAME_MOBILE)
  await proveIdentity(db, user, input, now, options.ip)
  await consumeSmsCode(db, {
    mobile: input.mobile,
    purpose: 'bind',
    code: input.code,
    now,
    ip: options.ip,
  })
  const holder = await findUserByMobile(db, input.mobile)
  if (holder && holder.id !== userId) throw badRequest(MOBILE_IN_USE, REASONS.mobileInUse)
  try {
    await db
      .updateTable('users')
      .set({ mobile: input.mobile, updated_at: now.toISOString() })
      .where('id', '=', userId)
      .execute()
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(MOBILE_IN_USE, REASONS.mobileInUse)
    throw error
  }
  await revokeUserSessions(db, userId, { except: options.keepSessionId, now })
  return loadProfile(db, await liveUser(db, userId))
}

export const MERGE_UNKNOWN_MOBILE = '该手机号没有注册账号，无需合并，请直接绑定手机号'
export const MERGE_SELF = '该手机号已是当前账号的手机号'
export const MERGE_CALLER_HAS_MOBILE = '当前账号已绑定其他手机号，无法再合并手机号账号'
export const MERGE_ID_CARD_CONFLICT = '两个账号绑定了不同的身份证，无法合并'
export const MERGE_WECHAT_CONFLICT = '两个账号绑定了不同的微信，无法合并'

/**
 * Merges the account registered with `mobile` into the caller's (typically a WeChat-registered
 * account), after the caller proved holding the phone with a 'merge' code. The phone account's
 * data moves to the caller; its row stays, marked deleted and without personal data, and
 * user_merges records the link so both histories remain traceable.
 *
 * Tables holding a user's data must be handled here when they are added (consultations, reports,
 * ...): moved to the caller, or explicitly left with the merged account.
 */
export async function mergeUser(
  db: DB,
  callerId: string,
  input: { mobile: string; code: string; password?: string | undefined },
  now: Date,
  options: IdentityChangeOptions = {},
): Promise<UserProfile> {
  const caller = await liveUser(db, callerId)
  if (caller.mobile === input.mobile) throw badRequest(MERGE_SELF)
  if (caller.mobile !== null) throw badRequest(MERGE_CALLER_HAS_MOBILE)
  // Outside the transaction: a wrong code must count as a try even though the merge then fails.
  await consumeSmsCode(db, {
    mobile: input.mobile,
    purpose: 'merge',
    code: input.code,
    now,
    ip: options.ip,
  })
  // The code proves holding the phone, which a carrier may have given to someone new; the phone
  // account's password proves being its owner. (Accounts that never set one rely on the code.)
  const absorbed = await findUserByMobile(db, input.mobile)
  if (absorbed?.password_hash) {
    if (!input.password) throw badRequest(MERGE_PASSWORD_REQUIRED)
    await checkPassword(
      db,
      proofRule(absorbed.id),
      absorbed.password_hash,
      input.password,
      MERGE_WRONG_PASSWORD,
      now,
    )
  }

  await db.transaction().execute(async (trx) => {
    const other = await findUserByMobile(trx, input.mobile)
    if (!other) throw badRequest(MERGE_UNKNOWN_MOBILE)
    if (other.id === callerId) throw badRequest(MERGE_SELF)
    if (
      caller.wechat_openid &&
      other.wechat_openid &&
      caller.wechat_openid !== other.wechat_openid
    ) {
      throw badRequest(MERGE_WECHAT_CONFLICT)
    }
    const cards = await trx
      .selectFrom('id_cards')
      .select(['user_id', 'number_hash'])
      .where('user_id', 'in', [callerId, other.id])
      .execute()
    // Two different real names on one account would make real-name verification meaningless.
    if (cards.length === 2) throw badRequest(MERGE_ID_CARD_CONFLICT)

    const at = now.toISOString()
    // The merged account first gives up its unique identifiers, so the caller can take them.
    await trx
      .updateTable('users')
      .set({
        mobile: null,
        wechat_openid: null,
        password_hash: null,
        avatar_url: null,
        nickname: DELETED_NICKNAME,
        deleted_at: at,
        updated_at: at,
      })
      .where('id', '=', other.id)
      .execute()
    await trx
      .updateTable('users')
      .set({
        mobile: other.mobile,
        wechat_openid: caller.wechat_openid ?? other.wechat_openid,
        // The phone's password keeps working for phone-and-password login.
        password_hash: caller.password_hash ?? other.password_hash,
        avatar_url: caller.avatar_url ?? other.avatar_url,
        // An expert certification is not lost by merging with a patient account.
        role: caller.role === 'expert' || other.role === 'expert' ? 'expert' : caller.role,
        updated_at: at,
      })
      .where('id', '=', callerId)
      .execute()

    await trx
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('user_id', '=', other.id)
      .where('revoked_at', 'is', null)
      .execute()
    await trx
      .updateTable('id_cards')
      .set({ user_id: callerId })
      .where('user_id', '=', other.id)
      .execute()
    await trx
      .updateTable('tracks')
      .set({ user_id: callerId })
      .where('user_id', '=', other.id)
      .execute()
    await trx
      .updateTable('files')
      .set({ user_id: callerId })
      .where('user_id', '=', other.id)
      .execute()
    await trx
      .updateTable('consents')
      .set({ user_id: callerId })
      .where('user_id', '=', other.id)
      .execute()
    await trx
      .updateTable('consents')
      .set({ subject_user_id: callerId })
      .where('subject_user_id', '=', other.id)
      .execute()
    // One person, one security record: the phone account's 登录记录 and appeals follow it.
    await trx
      .updateTable('audit_events')
      .set({ user_id: callerId })
      .where('user_id', '=', other.id)
      .execute()
    await trx
      .updateTable('id_card_appeals')
      .set({ user_id: callerId })
      .where('user_id', '=', other.id)
      .execute()
    const callerNotices = await trx
      .selectFrom('notice_settings')
      .select('user_id')
      .where('user_id', '=', callerId)
      .executeTakeFirst()
    if (callerNotices) {
      await trx.deleteFrom('notice_settings').where('user_id', '=', other.id).execute()
    } else {
      await trx
        .updateTable('notice_settings')
        .set({ user_id: callerId })
        .where('user_id', '=', other.id)
        .execute()
    }
    // 亲情卡 links and messages follow the person (domain/family/members.ts).
    await mergeFamily(trx, other.id, callerId, now)
    // So do grants: those of their records, those they received, and those they made as a manager
    // (which must end with the link they now hang on: members.ts endLink).
    for (const column of ['person_user_id', 'grantee_user_id', 'created_by_user_id'] as const) {
      await trx
        .updateTable('grants')
        .set({ [column]: callerId })
        .where(column, '=', other.id)
        .execute()
    }
    // A grant from the absorbed account to this one now names one person twice: it ends.
    await trx
      .updateTable('grants')
      .set({ revoked_at: at })
      .where('person_user_id', '=', callerId)
      .where('grantee_user_id', '=', callerId)
      .where('revoked_at', 'is', null)
      .execute()
    await trx
      .insertInto('user_merges')
      .values({ id: randomUUID(), from_user_id: other.id, into_user_id: callerId, created_at: at })
      .execute()
  })
  await revokeUserSessions(db, callerId, { except: options.keepSessionId, now })
  return loadProfile(db, await liveUser(db, callerId))
}

export interface StorageOptions {
  /** UPLOAD_DIR: the person's uploaded files are deleted from it. */
  uploadDir: string
}

/**
 * Deletes the account after a 'delete' code sent to the person's own phone. In one transaction the
 * profile is anonymised (the row stays so records that must be kept point at 已注销用户, not at a
 * person), the ID card, notice settings, analytics events and file records are deleted, the SMS
 * traces of the phone are removed and every session is revoked. The phone is free to register again.
 * What is kept and why: server/README.md, "Account deletion".
 */
export async function deleteAccount(
  db: DB,
  userId: string,
  input: { code: string; ip?: string | undefined },
  options: StorageOptions,
  now: Date,
): Promise<void> {
  const user = await liveUser(db, userId)
  if (!user.mobile) throw badRequest(NO_MOBILE_FOR_DELETE)
  await assertNoOpenConsultation(db, userId)
  await assertNoWalletMoney(db, userId)
  const mobile = user.mobile
  await consumeSmsCode(db, { mobile, purpose: 'delete', code: input.code, now, ip: input.ip })

  const storageKeys = await db
    .transaction()
    .execute(async (trx) => eraseAccount(trx, userId, mobile, now))
  // After the commit: a failed transaction must not have removed files its rows still point at.
  await removeStoredFiles(options.uploadDir, storageKeys)
}

export const OPEN_CONSULTATION_BLOCKS_DELETE =
  '您有进行中的咨询（待接诊、进行中或投诉处理中），费用仍由平台托管。请在咨询结束后再注销账号'

/**
 * A paid consultation still running (as the patient or as the expert), or a 投诉 waiting, holds
 * money for someone: the account stays until it ends (an unpaid order just closes by its timer).
 * What deletion keeps of ended ones is in the README ("Consultations": kept for the rules' years).
 */
async function assertNoOpenConsultation(db: DB, userId: string): Promise<void> {
  const open = await db
    .selectFrom('consultations')
    .select('id')
    .where((eb) => eb.or([eb('patient_user_id', '=', userId), eb('expert_user_id', '=', userId)]))
    .where((eb) =>
      eb.or([
        eb('state', 'in', ['waiting-accept', 'in-progress', 'answered']),
        eb(
          'id',
          'in',
          eb
            .selectFrom('consultation_complaints')
            .select('consultation_id')
            .where('state', '=', 'open'),
        ),
      ]),
    )
    .limit(1)
    .executeTakeFirst()
  if (open) throw conflict(OPEN_CONSULTATION_BLOCKS_DELETE)
}

export const WALLET_MONEY_BLOCKS_DELETE =
  '您的钱包还有待结算或可提现的收入，或有提现正在处理。请提现完成后再注销账号'

/**
 * An expert's wallet (domain/wallet) with money in it, or a withdrawal in flight, holds money for
 * them: the account stays until it is paid out (read from the ledger's tables directly: the wallet
 * builds on this folder, not the other way round).
 */
async function assertNoWalletMoney(db: DB, userId: string): Promise<void> {
  const [held, inFlight] = await Promise.all([
    db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('id', 'in', [
        `expert-pending:${userId}`,
        `expert-available:${userId}`,
        `expert-withdrawing:${userId}`,
      ])
      .where('balance', '<>', 0)
      .executeTakeFirst(),
    db.selectFrom('withdrawals').select('id').where('active_key', '=', userId).executeTakeFirst(),
  ])
  if (held || inFlight) throw conflict(WALLET_MONEY_BLOCKS_DELETE)
}

/**
 * The deletion itself, inside the caller's transaction: anonymise the row, revoke every session,
 * remove the personal rows and the phone's traces. Answers the storage keys of the removed files,
 * to be deleted from disk after the commit. Also used to remove the public demo accounts.
 */
export async function eraseAccount(
  db: DB,
  userId: string,
  mobile: string | null,
  now: Date,
): Promise<string[]> {
  const at = now.toISOString()
  await db
    .updateTable('users')
    .set({
      nickname: DELETED_NICKNAME,
      avatar_url: null,
      mobile: null,
      password_hash: null,
      wechat_openid: null,
      gender: 'unknown',
      deleted_at: at,
      updated_at: at,
    })
    .where('id', '=', userId)
    .execute()
  await db
    .updateTable('sessions')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute()
  await db.deleteFrom('id_cards').where('user_id', '=', userId).execute()
  // An appeal carries the number, name and a contact: personal data with no use after deletion.
  await db.deleteFrom('id_card_appeals').where('user_id', '=', userId).execute()
  await db.deleteFrom('notice_settings').where('user_id', '=', userId).execute()
  await db.deleteFrom('tracks').where('user_id', '=', userId).execute()
  await db.deleteFrom('qr_logins').where('user_id', '=', userId).execute()
  // Bookmark notes are the person's own words about their images.
  await db.deleteFrom('bookmarks').where('user_id', '=', userId).execute()
  await db.deleteFrom('bookmark_counts').where('user_id', '=', userId).execute()
  // AI analyses of their images (issue 23): derived from them, never kept without them.
  await forgetAiAnalysesOf(db, userId)
  // Grants (issue 9) the person made or received end with the account, their views and link
  // sessions with them (FK cascades): nobody reads a deleted person's records through a grant.
  await db
    .deleteFrom('grants')
    .where((eb) => eb.or([eb('person_user_id', '=', userId), eb('grantee_user_id', '=', userId)]))
    .execute()
  // Grants they made of a family member's records (as the manager) end as the management does
  // (members.ts endLink); the member keeps seeing them in 授权记录 as 已撤销.
  await db
    .updateTable('grants')
    .set({ revoked_at: now.toISOString() })
    .where('created_by_user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute()
  // Expert certification: the public profile and what identifies the applicant go now, the
  // certificate photos' bytes with the next purge (experts/account-deletion.ts).
  await forgetExpertOf(db, userId, now)
  // 亲情卡 links and messages go; a child left without a guardian goes with the account (nobody
  // can act for them), with their ID card.
  for (const childId of await forgetFamilyOf(db, userId)) {
    await eraseAccount(db, childId, null, now)
  }
  const files = await db
    .selectFrom('files')
    .select('storage_key')
    .where('user_id', '=', userId)
    .execute()
  await db.deleteFrom('files').where('user_id', '=', userId).execute()
  // The phone number itself: codes, the demo outbox, tickets and login-failure counters.
  if (mobile) {
    await db.deleteFrom('sms_codes').where('mobile', '=', mobile).execute()
    await db.deleteFrom('sms_outbox').where('mobile', '=', outboxMobileKey(mobile)).execute()
    await db.deleteFrom('code_tickets').where('mobile', '=', mobile).execute()
    await db.deleteFrom('login_failures').where('mobile', '=', mobile).execute()
    await forgetPhoneLimits(db, mobile)
  }
  return files.map((file) => file.storage_key)
}
