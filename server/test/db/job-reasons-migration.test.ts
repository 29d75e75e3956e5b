import assert from 'node:assert/strict'
import { test } from 'node:test'
import { jobReasons } from '../../src/db/migrations/0020-job-reasons'
import { STORAGE_FULL } from '../../src/http/errors'
import { createJob } from '../../src/jobs/runner'
import { openTestDatabase, TEST_DB_KIND } from '../helpers'

/*
 * Migration 0020 adds ingest_jobs.reason. A job that ended for a full store before it gets the
 * reason from its message, so STOW-RS still answers it 507 (storage.full), not 503.
 */
test(`jobs that ended for a full store before 0020 get storage.full (${TEST_DB_KIND})`, async () => {
  const handle = openTestDatabase()
  await handle.migrate()
  const { db } = handle
  const full = await createJob(db, { kind: 'stow', stagingPrefix: 'staging/test' })
  const other = await createJob(db, { kind: 'stow', stagingPrefix: 'staging/test' })
  await db
    .updateTable('ingest_jobs')
    .set({ message: STORAGE_FULL })
    .where('id', '=', full.id)
    .execute()
  await db
    .updateTable('ingest_jobs')
    .set({ message: '文件无法解析' })
    .where('id', '=', other.id)
    .execute()

  // As the database was before 0020, then 0020 again.
  await jobReasons.down!(db)
  await jobReasons.up(db)

  const reasons = await db
    .selectFrom('ingest_jobs')
    .select(['id', 'reason'])
    .where('id', 'in', [full.id, other.id])
    .execute()
  assert.deepEqual(Object.fromEntries(reasons.map((row) => [row.id, row.reason])), {
    [full.id]: 'storage.full',
    [other.id]: null,
  })
})
