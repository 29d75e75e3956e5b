import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely'

/*
 * PostgreSQL only: the change counters of migration 0011 are bumped in one sorted pass per
 * transaction, so two transactions can no longer deadlock on them.
 *
 * 0011 bumped each row's subjects at commit, sorted per row only. A transaction that changed an exam
 * of patient P and then one of Q locked P's counter, then Q's; another that changed exams of Q and
 * then P locked them the other way round, and PostgreSQL aborted one of the two after a second's
 * wait ("deadlock detected": a failed ingest or a 500). A STOW-RS request with studies of two
 * patients does exactly that (ingest writes every study of a request in one transaction). Two such
 * transactions racing freely met it about once in 300 pairs; test/records/list-cache-deadlock.test.ts
 * forces the interleaving.
 *
 * Now each row's trigger only notes its subjects (record_generation_pending, keyed by the
 * transaction, so transactions never touch each other's rows there), and at commit the first
 * deferred trigger bumps every noted subject of the transaction in one sorted order and clears the
 * notes; the later ones find nothing. Every transaction takes the counters' row locks in the same
 * global order, so none waits on another in a cycle. A rolled-back savepoint drops its notes with
 * its rows. SQLite has one writer at a time and needs none of this.
 */

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter

const TABLES: Record<string, string> = {
  exams: 'insert or update or delete',
  reports: 'insert or update or delete',
  exam_claims: 'insert or update or delete',
  exam_user_states: 'insert or update or delete',
  hospitals: 'update or delete',
}

export const recordGenerationOrder: Migration = {
  async up(db: Kysely<unknown>) {
    if (!isPostgres(db)) return
    // Unlogged: the notes live only until their transaction commits; after a crash none is wanted.
    await sql`
      create unlogged table record_generation_pending (
        txid bigint not null,
        subject text not null,
        primary key (txid, subject)
      )`.execute(db)
    // 0011's row functions call record_generation_bump(subject): it now notes instead of bumping.
    await sql`
      create or replace function record_generation_bump(changed text) returns void
      language sql as $$
        insert into record_generation_pending (txid, subject) values (txid_current(), changed)
        on conflict do nothing
      $$`.execute(db)
    await sql`
      create function record_generation_flush() returns trigger language plpgsql as $$
      declare
        noted text;
      begin
        for noted in
          select p.subject from record_generation_pending p
          where p.txid = txid_current() order by p.subject
        loop
          insert into record_generations (subject, generation) values (noted, 1)
          on conflict (subject) do update set generation = record_generations.generation + 1;
        end loop;
        delete from record_generation_pending where txid = txid_current();
        return null;
      end $$`.execute(db)
    for (const [table, events] of Object.entries(TABLES)) {
      // The noting trigger runs at once (no locks but the transaction's own note rows)…
      await sql.raw(`drop trigger ${table}_generation_bump on ${table}`).execute(db)
      await sql
        .raw(
          `create trigger ${table}_generation_note after ${events} on ${table}
           for each row execute function ${table}_generation_bump()`,
        )
        .execute(db)
      // …and the bump at commit, where the counters' locks are held only while committing.
      await sql
        .raw(
          `create constraint trigger ${table}_generation_flush after ${events} on ${table}
           deferrable initially deferred
           for each row execute function record_generation_flush()`,
        )
        .execute(db)
    }
  },
  async down(db: Kysely<unknown>) {
    if (!isPostgres(db)) return
    for (const [table, events] of Object.entries(TABLES)) {
      await sql.raw(`drop trigger if exists ${table}_generation_flush on ${table}`).execute(db)
      await sql.raw(`drop trigger if exists ${table}_generation_note on ${table}`).execute(db)
      await sql
        .raw(
          `create constraint trigger ${table}_generation_bump after ${events} on ${table}
           deferrable initially deferred
           for each row execute function ${table}_generation_bump()`,
        )
        .execute(db)
    }
    await sql`drop function if exists record_generation_flush()`.execute(db)
    await sql`
      create or replace function record_generation_bump(changed text) returns void
      language sql as $$
        insert into record_generations (subject, generation) values (changed, 1)
        on conflict (subject) do update set generation = record_generations.generation + 1
      $$`.execute(db)
    await sql`drop table if exists record_generation_pending`.execute(db)
  },
}
