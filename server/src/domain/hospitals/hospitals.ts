import { randomUUID } from 'node:crypto'
import { z } from 'zod/mini'
import { HospitalSchema } from '@contract/hospitals'
import type { DB } from '../../db'
import type { HospitalsTable } from '../../db/schema'
import { badRequest, notFound } from '../../http/errors'
import { toHospital } from './shape'

/** The hospital fields the API-key tooling and the hospital-facing endpoints see (no coordinates). */
const RecordFieldsSchema = z.omit(HospitalSchema, { latitude: true, longitude: true })

/** A hospital as the API-key tooling and the hospital-facing endpoints see it. */
export type HospitalRecord = z.infer<typeof RecordFieldsSchema> & { createdAt: string }

function toHospitalRecord(row: HospitalsTable): HospitalRecord {
  return { ...toHospital(row, RecordFieldsSchema), createdAt: row.created_at }
}

export interface NewHospital {
  name: string
  level?: string | undefined
  province?: string | undefined
  city?: string | undefined
  address?: string | undefined
  regionCode?: string | undefined
  regionName?: string | undefined
  aiReporting?: boolean | undefined
  demo?: boolean | undefined
}

const MAX_NAME = 100

/**
 * Adds a hospital: it joins the same `hospitals` table as the sign-on directory (one list of
 * hospitals, not two), after the existing ones. Names are unique, so `hospital key <name>` is never
 * ambiguous.
 */
export async function addHospital(db: DB, input: NewHospital, now: Date): Promise<HospitalRecord> {
  const name = input.name.trim()
  if (!name) throw badRequest('请填写医院名称')
  if (name.length > MAX_NAME) throw badRequest(`医院名称不能超过 ${MAX_NAME} 个字`)
  const regionCode = input.regionCode?.trim() || null
  if (regionCode !== null && !/^\d{6}$/.test(regionCode)) {
    throw badRequest('地区代码应为 6 位数字的行政区划代码（如 110101）')
  }
  return db.transaction().execute(async (trx) => {
    const same = await trx
      .selectFrom('hospitals')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirst()
    if (same) throw badRequest(`已有同名医院（${same.id}）`)
    const { last } = await trx
      .selectFrom('hospitals')
      .select((eb) => eb.fn.max('sort_order').as('last'))
      .executeTakeFirstOrThrow()
    const row: HospitalsTable = {
      id: randomUUID(),
      name,
      level: input.level?.trim() ?? '',
      province: input.province?.trim() ?? '',
      city: input.city?.trim() ?? '',
      address: input.address?.trim() ?? '',
      sort_order: Number(last ?? 0) + 1,
      created_at: now.toISOString(),
      region_code: regionCode,
      region_name: input.regionName?.trim() || null,
      ai_reporting: input.aiReporting ? 1 : 0,
      demo: input.demo ? 1 : 0,
    }
    await trx.insertInto('hospitals').values(row).execute()
    return toHospitalRecord(row)
  })
}

/** By id, else by exact name; several hospitals of one name (only possible in old data) is an error. */
export async function findHospital(db: DB, idOrName: string): Promise<HospitalRecord> {
  const text = idOrName.trim()
  const byId = await db
    .selectFrom('hospitals')
    .selectAll()
    .where('id', '=', text)
    .executeTakeFirst()
  if (byId) return toHospitalRecord(byId)
  const byName = await db.selectFrom('hospitals').selectAll().where('name', '=', text).execute()
  if (byName.length === 1) return toHospitalRecord(byName[0]!)
  if (byName.length > 1) {
    throw badRequest(
      `有多家医院名为「${text}」，请改用 id：${byName.map((row) => row.id).join('、')}`,
    )
  }
  throw notFound(`找不到医院「${text}」（可用 id 或完整名称）`)
}

export async function listHospitalRecords(db: DB): Promise<HospitalRecord[]> {
  const rows = await db
    .selectFrom('hospitals')
    .selectAll()
    .orderBy('sort_order')
    .orderBy('id')
    .execute()
  return rows.map(toHospitalRecord)
}
