import type { DB } from '../../db'

/*
 * The person's consents as the archive lists them. The one place this folder reads the `consents`
 * table: migration 0031 (the consent ledger, issue 24) extends it, and this function is what
 * follows that change.
 */

export interface ConsentEntry {
  kind: string
  version: string
  createdAt: string
}

export async function consentHistory(db: DB, userId: string): Promise<ConsentEntry[]> {
  const rows = await db
    .selectFrom('consents')
    .select(['kind', 'version', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.map((row) => ({ kind: row.kind, version: row.version, createdAt: row.created_at }))
}
