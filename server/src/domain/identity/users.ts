import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import {
  GENDERS,
  type Gender,
  type IdCardStatus,
  type Role,
  type UserProfile,
} from '@contract/sso/auth'
import type { DB } from '../../db'
import type { UsersTable } from '../../db/schema'
import { badRequest } from '../../http/errors'
import { maskMobile } from '../../masking'
import { hashPassword } from './secrets'

export type User = Selectable<UsersTable>

export const MOBILE_TAKEN = '该手机号已注册，请直接登录'

export interface NewUser {
  mobile?: string
  /** Plain password, hashed here (argon2id). Callers validate it with the contract's PasswordSchema. */
  password?: string
  role?: Role
  nickname?: string
  wechatOpenid?: string
  now: Date
}

/**
 * Creates an account. A phone number (or WeChat openid) that already has an account, deleted ones
 * excluded because deletion releases the number, answers 400 该手机号已注册，请直接登录.
 */
export async function createUser(db: DB, input: NewUser): Promise<User> {
  if (input.mobile && (await findUserByMobile(db, input.mobile))) throw badRequest(MOBILE_TAKEN)
  const at = input.now.toISOString()
  const user: User = {
    id: randomUUID(),
    mobile: input.mobile ?? null,
    // The last four digits are already visible in the masked number, so they reveal nothing new.
    nickname: input.nickname ?? (input.mobile ? `用户${input.mobile.slice(-4)}` : '微信用户'),
    avatar_url: null,
    gender: 'unknown',
    role: input.role ?? 'patient',
    password_hash: input.password ? await hashPassword(input.password) : null,
    wechat_openid: input.wechatOpenid ?? null,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  }
  try {
    await db.insertInto('users').values(user).execute()
  } catch (error) {
    // Two registrations of one number racing: the unique index decides, the loser gets the same text.
    if (isUniqueViolation(error)) throw badRequest(MOBILE_TAKEN)
    throw error
  }
  return user
}

/** A live (not deleted) account by id. */
export async function findUserById(db: DB, id: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

/** A live account by full phone number. */
export async function findUserByMobile(db: DB, mobile: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('mobile', '=', mobile)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

export async function findUserByWechatOpenid(db: DB, openid: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('wechat_openid', '=', openid)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

export interface ProfileExtras {
  /** none, bound (a card is stored), verified (a real-name provider confirmed it); see idCardStatus. */
  idCardStatus: IdCardStatus
}

/** The contract's UserProfile: what the app may show, never the full phone number. */
export function toProfile(user: User, extras: ProfileExtras): UserProfile {
  return {
    id: user.id,
    mobileMasked: user.mobile ? maskMobile(user.mobile) : null,
    nickname: user.nickname,
    avatarUrl: user.avatar_url,
    role: toRole(user.role),
    // 已实名 means a provider checked name and number; a card typed in is only 已绑定.
    realNameVerified: extras.idCardStatus === 'verified',
    idCardStatus: extras.idCardStatus,
    hasPassword: user.password_hash !== null,
    wechatBound: user.wechat_openid !== null,
    createdAt: user.created_at,
    gender: (GENDERS as readonly string[]).includes(user.gender)
      ? (user.gender as Gender)
      : 'unknown',
  }
}

/** toProfile with the ID card status read from the database. */
export async function loadProfile(db: DB, user: User): Promise<UserProfile> {
  return toProfile(user, { idCardStatus: await idCardStatus(db, user.id) })
}

/** Whether the user has an ID card, and whether a real-name provider verified it (id_cards). */
export async function idCardStatus(db: DB, userId: string): Promise<IdCardStatus> {
  const card = await db
    .selectFrom('id_cards')
    .select('verified_at')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!card) return 'none'
  return card.verified_at ? 'verified' : 'bound'
}

/** Whether a real-name provider verified the user's ID card (not merely bound). */
export async function isRealNameVerified(db: DB, userId: string): Promise<boolean> {
  return (await idCardStatus(db, userId)) === 'verified'
}

/** A unique-constraint violation on SQLite (better-sqlite3) or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  )
}

/** A stored role the contract knows, else patient (the least right). */
export function toRole(stored: string): Role {
  return stored === 'expert' || stored === 'operator' ? stored : 'patient'
}
