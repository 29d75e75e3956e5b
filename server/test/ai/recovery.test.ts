import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import type { DatabaseConfig } from '../../src/config'
import { consultWorld } from '../consultations/support'
import { isolatedDatabase, TEST_PG_URL } from '../helpers'
import { aiWorld, waitForAnalysis } from './support'

/*
 * A server killed in the middle of an analysis loses no request. The request's job row says a
 * worker on this host holds it, and that worker's process is gone (a real pid that has exited):
 * a server started on the same database takes the job at once (jobs/runner.ts) and finishes it.
 * Meanwhile the patient reads 分析中. SQLite (a file both servers open) and PostgreSQL alike.
 */

test('a worker killed mid-analysis: the next server takes the job and finishes it', async () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'yx-ai-recovery-'))
  after(() => rmSync(scratch, { recursive: true, force: true }))
  const database: DatabaseConfig = TEST_PG_URL
    ? isolatedDatabase()
    : { kind: 'sqlite', file: path.join(scratch, 'app.sqlite') }
  const uploadDir = path.join(scratch, 'uploads')
  // This server takes no job: the request stays queued until a worker takes it.
  const { world, asker, examId } = await aiWorld({
    config: { database, uploadDir },
    runJobs: false,
  })
  const applied = await world.call(asker, 'POST', `/main/exams/${examId}/ai-analysis`, {})
  assert.equal(applied.data.state, 'queued')
  const { job_id: jobId } = await world.app.db
    .selectFrom('ai_analyses')
    .select('job_id')
    .where('id', '=', applied.data.id)
    .executeTakeFirstOrThrow()

  // A worker took it and was killed (its process no longer exists), its lease still running.
  const gone = spawnSync(process.execPath, ['-e', '0']).pid
  await world.app.db
    .updateTable('ingest_jobs')
    .set({
      status: 'running',
      attempts: 1,
      locked_by: `${os.hostname()}|${gone}|killed`,
      locked_until: new Date(Date.now() + 10 * 60_000).toISOString(),
    })
    .where('id', '=', jobId)
    .execute()
  const meanwhile = await world.call(asker, 'GET', `/main/exams/${examId}/ai-analysis`)
  assert.equal(meanwhile.data.analysis.state, 'running')
  assert.equal(meanwhile.data.analysis.stateLabel, '分析中')

  const next = await consultWorld({ config: { database, uploadDir, aiProvider: 'demo' } })
  await next.app.jobs.sweep()
  const view = await waitForAnalysis(next, asker, examId)
  assert.equal(view.analysis.state, 'done', view.analysis.message)
  assert.equal(view.analysis.id, applied.data.id)
  const job = await next.app.db
    .selectFrom('ingest_jobs')
    .select(['status', 'attempts'])
    .where('id', '=', jobId)
    .executeTakeFirstOrThrow()
  assert.deepEqual([job.status, Number(job.attempts)], ['done', 2])
})
