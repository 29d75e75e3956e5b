import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely'

/*
 * The expert's written opinion of an 影像会诊 (issue 23, domain/opinions):
 *
 * - `opinion_template_variants`: an expert's own variants of a built-in template (its name and the
 *   default text of its fields). The built-in templates live in the code, by id and version.
 * - `opinion_drafts`: the opinion being written, one per consultation, saved as the expert types so
 *   a closed page or another phone loses nothing. Deleted when the opinion is signed.
 * - `opinions`: the signed opinion: the template (id, version, title) it was written with, the
 *   values, the sentences as the patient reads them, the pinned findings (TID 1500's content, as
 *   JSON), which fields began as an AI draft and whose, the signer as they were at signing, the
 *   verification code, and a SHA-256 of all of it. One per consultation (unique), tied to the
 *   conversation's signed answer message.
 *
 * Signed opinions never change: a trigger refuses every UPDATE on either database, so no write path
 * added later (nor a hand-run statement) can edit one. An addendum is a new signed message of the
 * conversation. Rows are deleted only by retention (15 years, 互联网诊疗监管细则).
 */
const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter

export const opinions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('opinion_template_variants')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('expert_user_id', 'text', (col) => col.notNull())
      .addColumn('template_id', 'text', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('values_json', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addUniqueConstraint('opinion_template_variants_name_key', ['expert_user_id', 'name'])
      .execute()

    await db.schema
      .createTable('opinion_drafts')
      .addColumn('consultation_id', 'text', (col) => col.primaryKey())
      .addColumn('expert_user_id', 'text', (col) => col.notNull())
      .addColumn('template_id', 'text', (col) => col.notNull())
      .addColumn('variant_id', 'text')
      .addColumn('values_json', 'text', (col) => col.notNull())
      .addColumn('pins_json', 'text', (col) => col.notNull())
      .addColumn('ai_json', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()

    await db.schema
      .createTable('opinions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('consultation_id', 'text', (col) => col.notNull().unique())
      .addColumn('message_id', 'text', (col) => col.notNull())
      .addColumn('expert_user_id', 'text', (col) => col.notNull())
      .addColumn('template_id', 'text', (col) => col.notNull())
      .addColumn('template_version', 'integer', (col) => col.notNull())
      .addColumn('template_title', 'text', (col) => col.notNull())
      .addColumn('values_json', 'text', (col) => col.notNull())
      .addColumn('sentences_json', 'text', (col) => col.notNull())
      .addColumn('pins_json', 'text', (col) => col.notNull())
      .addColumn('ai_json', 'text', (col) => col.notNull())
      .addColumn('signer_json', 'text', (col) => col.notNull())
      .addColumn('patient_label', 'text', (col) => col.notNull())
      .addColumn('verify_code', 'text', (col) => col.notNull().unique())
      .addColumn('content_hash', 'text', (col) => col.notNull())
      .addColumn('signed_at', 'text', (col) => col.notNull())
      .execute()

    if (isPostgres(db)) {
      await sql`
        create function opinions_refuse_update() returns trigger language plpgsql as $$
        begin
          raise exception 'signed opinions are immutable' using errcode = 'P0001';
        end $$`.execute(db)
      await sql`
        create trigger opinions_no_update before update on opinions
        for each row execute function opinions_refuse_update()`.execute(db)
    } else {
      await sql`
        create trigger opinions_no_update before update on opinions
        begin select raise(abort, 'signed opinions are immutable'); end`.execute(db)
    }
  },
  async down(db: Kysely<unknown>) {
    if (isPostgres(db)) {
      await sql`drop trigger if exists opinions_no_update on opinions`.execute(db)
      await sql`drop function if exists opinions_refuse_update()`.execute(db)
    } else {
      await sql`drop trigger if exists opinions_no_update`.execute(db)
    }
    await db.schema.dropTable('opinions').execute()
    await db.schema.dropTable('opinion_drafts').execute()
    await db.schema.dropTable('opinion_template_variants').execute()
  },
}
