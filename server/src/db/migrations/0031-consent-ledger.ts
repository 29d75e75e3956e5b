import { type Kysely, type Migration, sql } from 'kysely'

/*
 * The consent ledger (issue 24, domain/consents): `consents` (0002) becomes one row per consent
 * given or withdrawn, never updated.
 *
 * - `kind` is the purpose (contract/main/consents.ts CONSENT_PURPOSES); 0024 wrote a consultation's
 *   sharing consent as `consult-share:<id>`, which becomes kind `consult-share` with the
 *   consultation in `target_id`.
 * - `action`: given or withdrawn. The state of a consent is its newest row.
 * - `subject_user_id`: for whom (the person, or the family member a manager consented for); the
 *   account that acted is `user_id`.
 * - `channel`: where (the page and the button); `detail`: what the person saw named then (the
 *   expert, how many records), kept as it was.
 * - `seq`: the row's place among the rows of its consent (purpose, target, subject), 1, 2, 3…: two
 *   rows written in the same millisecond (a grant made and revoked at once) still have an order.
 */
export const consentLedger: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('consents')
      .addColumn('action', 'text', (col) => col.notNull().defaultTo('given'))
      .execute()
    await db.schema.alterTable('consents').addColumn('subject_user_id', 'text').execute()
    await db.schema.alterTable('consents').addColumn('target_id', 'text').execute()
    await db.schema.alterTable('consents').addColumn('channel', 'text').execute()
    await db.schema.alterTable('consents').addColumn('detail', 'text').execute()
    await db.schema
      .alterTable('consents')
      .addColumn('seq', 'integer', (col) => col.notNull().defaultTo(0))
      .execute()
    await sql`update consents set target_id = substr(kind, 15), kind = 'consult-share' where kind like 'consult-share:%'`.execute(
      db,
    )
    await sql`update consents set subject_user_id = user_id where subject_user_id is null`.execute(
      db,
    )
    await db.schema
      .createIndex('consents_ledger_idx')
      .on('consents')
      .columns(['user_id', 'kind', 'target_id', 'created_at'])
      .execute()
    await db.schema
      .createIndex('consents_subject_idx')
      .on('consents')
      .columns(['subject_user_id', 'created_at'])
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('consents_subject_idx').execute()
    await db.schema.dropIndex('consents_ledger_idx').execute()
    for (const column of ['seq', 'detail', 'channel', 'target_id', 'subject_user_id', 'action']) {
      await db.schema.alterTable('consents').dropColumn(column).execute()
    }
  },
}
