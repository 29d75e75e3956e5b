import { randomBytes, randomUUID } from 'node:crypto'
import type { DB } from '../../db'
import { badRequest, notFound } from '../../http/errors'
import { keyedHash, sameHash } from '../identity'
import { findHospital, type HospitalRecord } from './hospitals'

/*
 * API keys of hospital systems (STOW-RS, FHIR). A key is `yxh_` + 32 random bytes (base64url, 47
 * characters). Its first KEY_PREFIX_LENGTH characters are stored in clear, to find the row and to
 * name the key when listing or revoking it; the whole key is stored only as an HMAC-SHA256 under the
 * server secret (keyedHash).
 *
 * Why not argon2, as for passwords: a slow hash protects low-entropy secrets from guessing. A key of
 * 256 random bits cannot be guessed whatever the hash, so argon2 would only cost every hospital
 * request tens of milliseconds and 19 MiB (a flood of STOW calls would queue behind the login gate)
 * for nothing. The HMAC's key (SECRET_KEY) also means a copy of the database alone cannot even test
 * a candidate key. The comparison is constant-time (sameHash).
 */

export const KEY_PREFIX_LENGTH = 12
const KEY_LABEL = 'hospital-api-key'
/** Keys arrive in a header: anything outside these bounds is not one of ours, and is not hashed. */
const MIN_KEY_LENGTH = 16
const MAX_KEY_LENGTH = 200
/** last_used_at is written at most this often per key, not on every request of a busy hospital. */
const LAST_USED_RESOLUTION_MS = 60_000

export interface IssuedKey {
  id: string
  hospital: HospitalRecord
  prefix: string
  /** The key itself: shown once, never stored. */
  key: string
}

export function hashHospitalKey(key: string): string {
  return keyedHash(KEY_LABEL, key)
}

/** A new key for the hospital (by id or exact name). Older keys stay valid until revoked. */
export async function issueHospitalKey(db: DB, idOrName: string, now: Date): Promise<IssuedKey> {
  const hospital = await findHospital(db, idOrName)
  const key = `yxh_${randomBytes(32).toString('base64url')}`
  return { ...(await storeHospitalKey(db, hospital, key, now)), key }
}

/**
 * Stores a given key (the demo's published `demo-hospital-key`, or a new random one). A prefix that
 * is already taken is refused: prefixes name keys, so they must be unique.
 */
export async function storeHospitalKey(
  db: DB,
  hospital: HospitalRecord,
  key: string,
  now: Date,
): Promise<Omit<IssuedKey, 'key'>> {
  if (key.length < MIN_KEY_LENGTH || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw badRequest(`密钥须为 ${MIN_KEY_LENGTH}–${MAX_KEY_LENGTH} 个可见 ASCII 字符`)
  }
  const prefix = key.slice(0, KEY_PREFIX_LENGTH)
  const taken = await db
    .selectFrom('hospital_api_keys')
    .select('id')
    .where('key_prefix', '=', prefix)
    .executeTakeFirst()
  if (taken) throw badRequest(`密钥前缀 ${prefix} 已被使用`)
  const id = randomUUID()
  await db
    .insertInto('hospital_api_keys')
    .values({
      id,
      hospital_id: hospital.id,
      key_prefix: prefix,
      key_hash: hashHospitalKey(key),
      created_at: now.toISOString(),
      revoked_at: null,
      last_used_at: null,
    })
    .execute()
  return { id, hospital, prefix }
}

/** Revokes the key with this prefix (a whole key is accepted too). Revoking twice says so. */
export async function revokeHospitalKey(
  db: DB,
  prefixOrKey: string,
  now: Date,
): Promise<{ prefix: string; hospital: HospitalRecord; alreadyRevokedAt?: string }> {
  const prefix = prefixOrKey.trim().slice(0, KEY_PREFIX_LENGTH)
  const row = await db
    .selectFrom('hospital_api_keys')
    .selectAll()
    .where('key_prefix', '=', prefix)
    .executeTakeFirst()
  if (!row || prefix.length < KEY_PREFIX_LENGTH) throw notFound(`找不到前缀为 ${prefix} 的密钥`)
  const hospital = await findHospital(db, row.hospital_id)
  if (row.revoked_at) return { prefix, hospital, alreadyRevokedAt: row.revoked_at }
  await db
    .updateTable('hospital_api_keys')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', row.id)
    .where('revoked_at', 'is', null)
    .execute()
  return { prefix, hospital }
}

export interface HospitalKeyInfo {
  id: string
  hospitalId: string
  prefix: string
  createdAt: string
  revokedAt: string | null
  lastUsedAt: string | null
}

/** Every key, or one hospital's. */
export async function listHospitalKeys(db: DB, hospitalId?: string): Promise<HospitalKeyInfo[]> {
  let query = db.selectFrom('hospital_api_keys').selectAll()
  if (hospitalId !== undefined) query = query.where('hospital_id', '=', hospitalId)
  const rows = await query.orderBy('created_at').orderBy('id').execute()
  return rows.map((row) => ({
    id: row.id,
    hospitalId: row.hospital_id,
    prefix: row.key_prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  }))
}

export type HospitalKeyCheck =
  | { ok: true; hospital: HospitalRecord; keyId: string; keyPrefix: string }
  | { ok: false; reason: 'unknown' | 'revoked' }

/**
 * Checks a presented key. `revoked` is told only to a caller who presented the whole revoked key
 * (they held it), so a hospital learns why it is refused; a guess learns nothing beyond `unknown`.
 */
export async function checkHospitalKey(db: DB, key: string, now: Date): Promise<HospitalKeyCheck> {
  if (key.length < MIN_KEY_LENGTH || key.length > MAX_KEY_LENGTH) {
    return { ok: false, reason: 'unknown' }
  }
  const presented = hashHospitalKey(key)
  const row = await db
    .selectFrom('hospital_api_keys')
    .selectAll()
    .where('key_prefix', '=', key.slice(0, KEY_PREFIX_LENGTH))
    .executeTakeFirst()
  if (!row || !sameHash(presented, row.key_hash)) return { ok: false, reason: 'unknown' }
  if (row.revoked_at) return { ok: false, reason: 'revoked' }
  const hospital = await findHospital(db, row.hospital_id)
  const lastUsed = row.last_used_at ? Date.parse(row.last_used_at) : 0
  if (now.getTime() - lastUsed >= LAST_USED_RESOLUTION_MS) {
    await db
      .updateTable('hospital_api_keys')
      .set({ last_used_at: now.toISOString() })
      .where('id', '=', row.id)
      .execute()
  }
  return { ok: true, hospital, keyId: row.id, keyPrefix: row.key_prefix }
}
