import { PLATFORM_SHARE_DEFAULT_BP } from '@contract/main/consultations'
import type { DB } from '../../db'

const SHARE_KEY = 'platform-share-bp'

/** The platform's share of new consultations, in basis points (an operator's setting). */
export async function platformShareBp(db: DB): Promise<number> {
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', SHARE_KEY).executeTakeFirst()
  const value = row ? Number(row.value) : NaN
  return Number.isInteger(value) ? value : PLATFORM_SHARE_DEFAULT_BP
}

export async function setPlatformShareBp(db: DB, bp: number, operatorId: string, now: Date): Promise<void> {
  const at = now.toISOString()
  await db
    .insertInto('app_settings')
    .values({ key: SHARE_KEY, value: String(bp), updated_by: operatorId, updated_at: at })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(bp), updated_by: operatorId, updated_at: at }))
    .execute()
}
