import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Expert profiles, services and suspension (issue 20, contract/main/expert-profiles.ts), on the
 * `experts` row of 0021:
 * - `name`: the certified name, copied from the bound ID card's holder at approval. It is public
 *   (the profile and the directory show it, 搜索 finds it), so it is kept in clear for the Chinese
 *   substring search; the card's holder stays encrypted. A card cannot be rebound, so the copy
 *   cannot drift. Null only for rows certified before this migration until start-up fills it
 *   (experts/profiles.ts fillExpertNames, which has the cipher a migration has not).
 * - services as columns, one enabled flag and one integer-fen price per service: the directory
 *   filters on them (`service=imaging`) and a price is a number the database can check, which a
 *   JSON blob is not. Defaults are EXPERT_SERVICE_RULES' at the time of writing, as literals: a
 *   migration must not change when the contract's constants do.
 * - `accepting` (接诊中 / 暂停接诊, the expert's own switch) and `daily_limit`.
 * - `suspended_by`: the operator who suspended (suspended_at / suspended_reason exist since 0021).
 * - `photo_path`: a public picture of the expert (demo avatars today); null draws the initial.
 * - `demo`: a demo expert (演示专家), removed with the demo data when demo mode is off.
 */
export const expertServices: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('experts').addColumn('name', 'text').execute()
    const flagsAndNumbers: [string, number][] = [
      ['accepting', 1],
      ['daily_limit', 20],
      ['text_enabled', 1],
      ['text_price_fen', 3000],
      ['imaging_enabled', 1],
      ['imaging_price_fen', 20000],
      ['demo', 0],
    ]
    for (const [column, value] of flagsAndNumbers) {
      await db.schema
        .alterTable('experts')
        .addColumn(column, 'integer', (col) => col.notNull().defaultTo(value))
        .execute()
    }
    await db.schema.alterTable('experts').addColumn('suspended_by', 'text').execute()
    await db.schema.alterTable('experts').addColumn('photo_path', 'text').execute()
    // The directory: public experts (not suspended), accepting first, then the newest certified.
    // Partial, so a suspended expert costs the directory nothing; both databases build it.
    await sql`create index experts_directory_idx on experts (accepting, certified_at) where suspended_at is null`.execute(
      db,
    )
    await db.schema
      .createIndex('experts_hospital_idx')
      .on('experts')
      .column('hospital_id')
      .execute()
    await db.schema
      .createIndex('experts_department_idx')
      .on('experts')
      .column('department')
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('experts_department_idx').execute()
    await db.schema.dropIndex('experts_hospital_idx').execute()
    await db.schema.dropIndex('experts_directory_idx').execute()
    for (const column of [
      'photo_path',
      'suspended_by',
      'demo',
      'imaging_price_fen',
      'imaging_enabled',
      'text_price_fen',
      'text_enabled',
      'daily_limit',
      'accepting',
      'name',
    ]) {
      await db.schema.alterTable('experts').dropColumn(column).execute()
    }
  },
}
