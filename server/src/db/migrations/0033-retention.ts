import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely'

/*
 * Retention (issue 24, domain/retention):
 *
 * - Signed opinions are kept 15 years (互联网诊疗监管细则). 0028's trigger refuses every UPDATE; DELETE
 *   was open, so any statement could remove a live opinion. Now the database refuses deleting one
 *   signed less than 15 years ago by its own clock, and the retention purge, past that, can. The day
 *   of slack lets an app clock a little ahead of the database's run the purge without a refused
 *   batch; it weakens nothing that matters (14 years and 364 days is no "live" record).
 * - Indexes for the purge's scans by time, which no existing index serves: without them each run
 *   reads the whole table to find nothing.
 */
const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter

const INDEXES = [
  ['consultations_ended_idx', 'consultations', 'ended_at'],
  ['consultation_messages_signed_idx', 'consultation_messages', 'signed_at'],
  ['consultation_pictures_created_idx', 'consultation_pictures', 'created_at'],
  ['opinions_signed_idx', 'opinions', 'signed_at'],
  ['exam_requests_created_idx', 'exam_requests', 'created_at'],
  ['grant_views_last_idx', 'grant_views', 'last_at'],
  ['ai_analyses_created_idx', 'ai_analyses', 'created_at'],
  ['share_sessions_expires_idx', 'share_sessions', 'expires_at'],
] as const

export const retention: Migration = {
  async up(db: Kysely<unknown>) {
    if (isPostgres(db)) {
      await sql`
        create function opinions_refuse_early_delete() returns trigger language plpgsql as $$
        begin
          if old.signed_at::timestamptz > now() - interval '15 years' + interval '1 day' then
            raise exception 'signed opinions are kept 15 years' using errcode = 'P0001';
          end if;
          return old;
        end $$`.execute(db)
      await sql`
        create trigger opinions_no_early_delete before delete on opinions
        for each row execute function opinions_refuse_early_delete()`.execute(db)
    } else {
      // The app's timestamps are ISO strings in UTC with milliseconds: the same text SQLite makes here.
      await sql`
        create trigger opinions_no_early_delete before delete on opinions
        when old.signed_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-15 years', '+1 day')
        begin select raise(abort, 'signed opinions are kept 15 years'); end`.execute(db)
    }
    for (const [name, table, column] of INDEXES) {
      await db.schema.createIndex(name).on(table).column(column).execute()
    }
  },
  async down(db: Kysely<unknown>) {
    for (const [name] of INDEXES) await db.schema.dropIndex(name).execute()
    if (isPostgres(db)) {
      await sql`drop trigger if exists opinions_no_early_delete on opinions`.execute(db)
      await sql`drop function if exists opinions_refuse_early_delete()`.execute(db)
    } else {
      await sql`drop trigger if exists opinions_no_early_delete`.execute(db)
    }
  },
}
