import { OperatorHospitalSchema } from '@contract/main/operator'
import type { DB } from '../../db'
import { badRequest, notFound } from '../../http/errors'
import {
  addHospital,
  issueHospitalKey,
  listHospitalKeys,
  type NewHospital,
  revokeHospitalKey,
  toHospital,
} from '../hospitals'
import { recordOperatorAction } from './audit'

/*
 * What operators switch without a release: the apps page's features, and hospitals with the API
 * keys their systems push records with. Every change writes its audit line.
 */

export const FEATURE_NOT_FOUND = '没有这个功能'
export const KEY_NOT_FOUND = '密钥不存在'
export const HOSPITAL_NOT_FOUND = '医院不存在'

export async function listAllFeatures(db: DB) {
  const rows = await db
    .selectFrom('features')
    .selectAll()
    .orderBy('sort_order')
    .orderBy('key')
    .execute()
  return rows.map((row) => ({
    key: row.key,
    name: row.name,
    iconPath: row.icon_path,
    enabled: Number(row.enabled) === 1,
    order: Number(row.sort_order),
    updatedAt: row.updated_at,
  }))
}

export async function setFeature(
  db: DB,
  operatorId: string,
  input: { key: string; enabled: boolean; order?: number | undefined },
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('features')
      .set({
        enabled: input.enabled ? 1 : 0,
        updated_at: now.toISOString(),
        ...(input.order === undefined ? {} : { sort_order: input.order }),
      })
      .where('key', '=', input.key)
      .executeTakeFirst()
    if (Number(done.numUpdatedRows) !== 1) throw notFound(FEATURE_NOT_FOUND)
    await recordOperatorAction(
      trx,
      {
        operatorId,
        action: 'feature-set',
        targetId: input.key,
        detail: `${input.enabled ? '开启' : '关闭'}${input.order === undefined ? '' : `，顺序 ${input.order}`}`,
      },
      now,
    )
  })
}

/** A new hospital's fields but its flags (AI reporting, demo: not the operator's), and its place. */
export interface HospitalInput extends Omit<NewHospital, 'aiReporting' | 'demo'> {
  id?: string | undefined
  latitude?: number | undefined
  longitude?: number | undefined
}

/** Every hospital, or the one with this id, with its count of keys not revoked. */
export async function listOperatorHospitals(db: DB, onlyId?: string) {
  let hospitals = db.selectFrom('hospitals').selectAll()
  let keys = db
    .selectFrom('hospital_api_keys')
    .select('hospital_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('revoked_at', 'is', null)
    .groupBy('hospital_id')
  if (onlyId !== undefined) {
    hospitals = hospitals.where('id', '=', onlyId)
    keys = keys.where('hospital_id', '=', onlyId)
  }
  const [rows, active] = await Promise.all([
    hospitals.orderBy('sort_order').orderBy('id').execute(),
    keys.execute(),
  ])
  const activeOf = new Map(active.map((row) => [row.hospital_id, Number(row.n)]))
  return rows.map((row) => ({
    ...toHospital(row, OperatorHospitalSchema),
    activeKeys: activeOf.get(row.id) ?? 0,
  }))
}

async function operatorHospital(db: DB, hospitalId: string) {
  const [found] = await listOperatorHospitals(db, hospitalId)
  if (!found) throw notFound(HOSPITAL_NOT_FOUND)
  return found
}

export const COORDINATES_BOTH = '经度和纬度请同时填写，或都不填'

export async function saveHospital(db: DB, operatorId: string, input: HospitalInput, now: Date) {
  if ((input.latitude === undefined) !== (input.longitude === undefined)) {
    throw badRequest(COORDINATES_BOTH)
  }
  const place = { latitude: input.latitude ?? null, longitude: input.longitude ?? null }
  let id: string
  if (input.id) {
    id = input.id
    await db.transaction().execute(async (trx) => {
      const same = await trx
        .selectFrom('hospitals')
        .select('id')
        .where('name', '=', input.name)
        .where('id', '!=', id)
        .executeTakeFirst()
      if (same) throw badRequest(`已有同名医院（${same.id}）`)
      const done = await trx
        .updateTable('hospitals')
        .set({
          name: input.name,
          level: input.level ?? '',
          province: input.province ?? '',
          city: input.city ?? '',
          address: input.address ?? '',
          region_code: input.regionCode || null,
          region_name: input.regionName || null,
          ...place,
        })
        .where('id', '=', id)
        .executeTakeFirst()
      if (Number(done.numUpdatedRows) !== 1) throw notFound(HOSPITAL_NOT_FOUND)
      await recordOperatorAction(
        trx,
        { operatorId, action: 'hospital-save', targetId: id, detail: input.name },
        now,
      )
    })
  } else {
    const added = await addHospital(db, input, now)
    id = added.id
    await db.updateTable('hospitals').set(place).where('id', '=', id).execute()
    await recordOperatorAction(
      db,
      { operatorId, action: 'hospital-save', targetId: id, detail: `新增 ${input.name}` },
      now,
    )
  }
  return operatorHospital(db, id)
}

function toKey(key: Awaited<ReturnType<typeof listHospitalKeys>>[number]) {
  return {
    id: key.id,
    prefix: key.prefix,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
  }
}

export async function listKeysOf(db: DB, hospitalId: string) {
  await operatorHospital(db, hospitalId)
  return (await listHospitalKeys(db, hospitalId)).map(toKey)
}

export async function issueKey(db: DB, operatorId: string, hospitalId: string, now: Date) {
  // By id only (findHospital would also take a name).
  const hospital = await operatorHospital(db, hospitalId)
  const issued = await issueHospitalKey(db, hospital.id, now)
  await recordOperatorAction(
    db,
    { operatorId, action: 'hospital-key-issue', targetId: hospital.id, detail: issued.prefix },
    now,
  )
  const info = (await listKeysOf(db, hospital.id)).find((key) => key.id === issued.id)!
  return { ...info, key: issued.key }
}

export async function revokeKey(
  db: DB,
  operatorId: string,
  hospitalId: string,
  keyId: string,
  now: Date,
) {
  const key = (await listKeysOf(db, hospitalId)).find((row) => row.id === keyId)
  if (!key) throw notFound(KEY_NOT_FOUND)
  await revokeHospitalKey(db, key.prefix, now)
  await recordOperatorAction(
    db,
    { operatorId, action: 'hospital-key-revoke', targetId: hospitalId, detail: key.prefix },
    now,
  )
  return (await listKeysOf(db, hospitalId)).find((row) => row.id === keyId)!
}
