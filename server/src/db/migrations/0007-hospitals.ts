import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Hospitals become data sources (issue 7): where they are (administrative region, for the region
 * cascade of 影像查询), whether they offer AI reporting, whether they are demo data, and the API keys
 * their systems push studies and reports with. Flags are 0/1 integers, as elsewhere.
 */
export const hospitals: Migration = {
  async up(db: Kysely<unknown>) {
    // GB/T 2260 six-digit code (e.g. 110101) and its name (北京市东城区); unknown for older rows.
    await db.schema.alterTable('hospitals').addColumn('region_code', 'text').execute()
    await db.schema.alterTable('hospitals').addColumn('region_name', 'text').execute()
    await db.schema
      .alterTable('hospitals')
      .addColumn('ai_reporting', 'integer', (col) => col.notNull().defaultTo(0))
      .execute()
    await db.schema
      .alterTable('hospitals')
      .addColumn('demo', 'integer', (col) => col.notNull().defaultTo(0))
      .execute()
    // The directory's demo hospitals seeded before this column existed.
    await sql`update hospitals set demo = 1 where id like 'demo-hospital-%'`.execute(db)
    await db.schema
      .createIndex('hospitals_region_idx')
      .on('hospitals')
      .column('region_code')
      .execute()

    await db.schema
      .createTable('hospital_api_keys')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('hospital_id', 'text', (col) =>
        col.notNull().references('hospitals.id').onDelete('cascade'),
      )
      // The key's first characters, in clear: names the key in lists and revocations, and finds
      // its row; the rest of the key is only ever stored as key_hash.
      .addColumn('key_prefix', 'text', (col) => col.notNull().unique())
      // HMAC-SHA256 under the server secret (domain/hospitals/api-keys.ts says why not argon2).
      .addColumn('key_hash', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('last_used_at', 'text')
      .execute()
    await db.schema
      .createIndex('hospital_api_keys_hospital_idx')
      .on('hospital_api_keys')
      .column('hospital_id')
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('hospital_api_keys').execute()
    await db.schema.dropIndex('hospitals_region_idx').execute()
    for (const column of ['demo', 'ai_reporting', 'region_name', 'region_code']) {
      await db.schema.alterTable('hospitals').dropColumn(column).execute()
    }
  },
}
