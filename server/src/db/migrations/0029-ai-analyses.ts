import { type Kysely, type Migration, sql } from 'kysely'

/*
 * AI analyses (issue 23, "AI only as a draft"): one row per 申请AI分析 of an exam. The result
 * (result_json: draft text for a template's fields and the computed values) is only ever read for the
 * expert of a consultation whose grant shares the exam (domain/ai). The work runs as an ingest_jobs
 * job (job_id); a killed worker's job is taken again by the runner, so the row is never lost.
 *
 * - One live request per exam: the partial unique index allows a new row only once the previous
 *   one failed (asking again while one is queued, running or done answers that one).
 * - provider_json keeps the provider as it was when asked (id, name, kind, notice), so a draft and
 *   the signed opinion name the provider that made it even after the configuration changes.
 * - Deleting the exam or the account of its person deletes the analyses (cascade).
 */
export const aiAnalyses: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ai_analyses')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('exam_id', 'text', (col) =>
        col.notNull().references('exams.id').onDelete('cascade'),
      )
      .addColumn('person_user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('requested_by_user_id', 'text', (col) =>
        col.references('users.id').onDelete('set null'),
      )
      .addColumn('provider_id', 'text', (col) => col.notNull())
      .addColumn('provider_json', 'text', (col) => col.notNull())
      // queued | done | failed (running is the job's own state, read from ingest_jobs).
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('job_id', 'text', (col) => col.notNull())
      // Why it failed, for the patient (演示算法 refusals: not a CT, no pixel spacing, ...).
      .addColumn('message', 'text')
      .addColumn('template_id', 'text')
      .addColumn('result_json', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addColumn('finished_at', 'text')
      .execute()
    await sql`create unique index ai_analyses_live_idx on ai_analyses (exam_id) where state <> 'failed'`.execute(
      db,
    )
    await db.schema
      .createIndex('ai_analyses_exam_idx')
      .on('ai_analyses')
      .columns(['exam_id', 'created_at'])
      .execute()
    await db.schema.createIndex('ai_analyses_job_idx').on('ai_analyses').column('job_id').execute()
    await db.schema
      .createIndex('ai_analyses_person_idx')
      .on('ai_analyses')
      .column('person_user_id')
      .execute()
    await db.schema
      .createIndex('ai_analyses_requester_idx')
      .on('ai_analyses')
      .column('requested_by_user_id')
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('ai_analyses').execute()
  },
}
