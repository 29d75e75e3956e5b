import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely'

/*
 * A generation counter per "subject" whose records lists can change, kept by the database itself:
 * every insert, update or delete of a row the patient lists read (exams, reports, claims, the
 * per-person marks, hospital names) bumps the counters of the people it concerns, in the same
 * transaction. domain/patient/list-cache.ts keeps a list answer only while those counters stay
 * where they were when it was computed, so a change made by any server process (or the `hospital`
 * command) is seen by the next request everywhere.
 *
 * Triggers rather than calls in the application: a write path added later (or a hand-run UPDATE)
 * cannot forget to bump, which is the classic way such caches go stale.
 *
 * Subjects:
 *   u:<user id>      the user's own uploads, claims and marks
 *   p:<patient key>  hospital exams of that identity (id_cards.number_hash)
 *   *                everything (a hospital renamed or removed)
 */

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter

/** The subjects an exam row concerns: its owner, its identity, and whoever claimed it. */
function sqliteExamSubjects(row: 'new' | 'old'): string {
  return `
    select 'u:' || ${row}.owner_user_id where ${row}.owner_user_id is not null
    union select 'p:' || ${row}.patient_key where ${row}.patient_key is not null
    union select 'u:' || user_id from exam_claims where exam_id = ${row}.id`
}

/** Same, for a row that points at an exam by exam_id (reports). */
function sqliteExamSubjectsOf(examId: string): string {
  return `
    select 'u:' || owner_user_id from exams where id = ${examId} and owner_user_id is not null
    union select 'p:' || patient_key from exams where id = ${examId} and patient_key is not null
    union select 'u:' || user_id from exam_claims where exam_id = ${examId}`
}

function sqliteBump(subjects: string): string {
  // `where true` lets SQLite's parser tell the upsert from a join of the select.
  return `insert into record_generations (subject, generation)
    select subject, 1 from (select null as subject where false union ${subjects}) where true
    on conflict (subject) do update set generation = generation + 1;`
}

/** A claim or a mark: the person it belongs to, before and after the change. */
const SQLITE_USER_ROW = {
  insert: sqliteBump(`select 'u:' || new.user_id`),
  update: sqliteBump(`select 'u:' || new.user_id union select 'u:' || old.user_id`),
  delete: sqliteBump(`select 'u:' || old.user_id`),
}

const SQLITE_TRIGGERS: Record<string, Partial<Record<'insert' | 'update' | 'delete', string>>> = {
  exams: {
    insert: sqliteBump(sqliteExamSubjects('new')),
    update: sqliteBump(`${sqliteExamSubjects('new')} union ${sqliteExamSubjects('old')}`),
    delete: sqliteBump(sqliteExamSubjects('old')),
  },
  reports: {
    insert: sqliteBump(sqliteExamSubjectsOf('new.exam_id')),
    update: sqliteBump(
      `${sqliteExamSubjectsOf('new.exam_id')} union ${sqliteExamSubjectsOf('old.exam_id')}`,
    ),
    delete: sqliteBump(sqliteExamSubjectsOf('old.exam_id')),
  },
  exam_claims: SQLITE_USER_ROW,
  exam_user_states: SQLITE_USER_ROW,
  hospitals: {
    update: sqliteBump(`select '*'`),
    delete: sqliteBump(`select '*'`),
  },
}

const triggerName = (table: string, event: string) => `${table}_generation_${event}`

async function upSqlite(db: Kysely<unknown>): Promise<void> {
  for (const [table, events] of Object.entries(SQLITE_TRIGGERS)) {
    for (const [event, body] of Object.entries(events)) {
      await sql
        .raw(
          `create trigger ${triggerName(table, event)} after ${event} on ${table}
           for each row begin ${body} end`,
        )
        .execute(db)
    }
  }
}

/*
 * PostgreSQL: one function per table, run as a deferred constraint trigger, i.e. at commit, still
 * inside the transaction, so a counter's row lock is not held through a long ingest. Each row's
 * subjects are bumped in sorted order; migration 0012 makes the order hold across a whole
 * transaction (two transactions changing the same people in opposite orders could deadlock here).
 */

/** A PL/pgSQL loop bumping the subjects a query (one column `s`) names, in sorted order. */
function bumpSorted(subjects: string): string {
  return `
      for subject in select s from (${subjects}) as subjects order by s
      loop perform record_generation_bump(subject); end loop;`
}

/** The person a claim or a mark belongs to, before and after the change. */
const USER_ROW_SUBJECTS = `
          select 'u:' || new_row.user_id as s where new_row.user_id is not null
          union select 'u:' || old_row.user_id where old_row.user_id is not null`

const ALL_CHANGES = 'insert or update or delete'

const POSTGRES_FUNCTIONS: Record<string, { events: string; body: string }> = {
  exams: {
    events: ALL_CHANGES,
    body: bumpSorted(`
          select 'u:' || new_row.owner_user_id as s where new_row.owner_user_id is not null
          union select 'p:' || new_row.patient_key where new_row.patient_key is not null
          union select 'u:' || old_row.owner_user_id where old_row.owner_user_id is not null
          union select 'p:' || old_row.patient_key where old_row.patient_key is not null
          union select 'u:' || c.user_id from exam_claims c
            where c.exam_id = coalesce(new_row.id, old_row.id)`),
  },
  reports: {
    events: ALL_CHANGES,
    body: bumpSorted(`
          select 'u:' || e.owner_user_id as s from exams e
            where e.id in (new_row.exam_id, old_row.exam_id) and e.owner_user_id is not null
          union select 'p:' || e.patient_key from exams e
            where e.id in (new_row.exam_id, old_row.exam_id) and e.patient_key is not null
          union select 'u:' || c.user_id from exam_claims c
            where c.exam_id in (new_row.exam_id, old_row.exam_id)`),
  },
  exam_claims: { events: ALL_CHANGES, body: bumpSorted(USER_ROW_SUBJECTS) },
  exam_user_states: { events: ALL_CHANGES, body: bumpSorted(USER_ROW_SUBJECTS) },
  hospitals: {
    events: 'update or delete',
    body: `perform record_generation_bump('*');`,
  },
}

async function upPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function record_generation_bump(changed text) returns void language sql as $$
      insert into record_generations (subject, generation) values (changed, 1)
      on conflict (subject) do update set generation = record_generations.generation + 1
    $$`.execute(db)
  for (const [table, { events, body }] of Object.entries(POSTGRES_FUNCTIONS)) {
    // NEW is null on delete and OLD on insert; the rows are copied so both can be read either way.
    await sql
      .raw(
        `create function ${triggerName(table, 'bump')}() returns trigger language plpgsql as $$
        declare
          new_row ${table}%rowtype;
          old_row ${table}%rowtype;
          subject text;
        begin
          if tg_op in ('INSERT', 'UPDATE') then new_row := new; end if;
          if tg_op in ('UPDATE', 'DELETE') then old_row := old; end if;
          ${body}
          return null;
        end $$`,
      )
      .execute(db)
    await sql
      .raw(
        `create constraint trigger ${triggerName(table, 'bump')} after ${events} on ${table}
         deferrable initially deferred
         for each row execute function ${triggerName(table, 'bump')}()`,
      )
      .execute(db)
  }
}

export const recordGenerations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('record_generations')
      .addColumn('subject', 'text', (col) => col.primaryKey())
      .addColumn('generation', 'bigint', (col) => col.notNull())
      .execute()
    if (isPostgres(db)) await upPostgres(db)
    else await upSqlite(db)
  },
  async down(db: Kysely<unknown>) {
    if (isPostgres(db)) {
      for (const table of Object.keys(POSTGRES_FUNCTIONS)) {
        await sql
          .raw(`drop trigger if exists ${triggerName(table, 'bump')} on ${table}`)
          .execute(db)
        await sql.raw(`drop function if exists ${triggerName(table, 'bump')}()`).execute(db)
      }
      await sql`drop function if exists record_generation_bump(text)`.execute(db)
    } else {
      for (const [table, events] of Object.entries(SQLITE_TRIGGERS)) {
        for (const event of Object.keys(events)) {
          await sql.raw(`drop trigger if exists ${triggerName(table, event)}`).execute(db)
        }
      }
    }
    await db.schema.dropTable('record_generations').execute()
  },
}
