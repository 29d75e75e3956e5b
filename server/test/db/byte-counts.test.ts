import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { sql } from 'kysely'
import { parseInt8 } from '../../src/db'
import { createJob } from '../../src/jobs/runner'
import { releaseStorage, reserveStorage, storageQuota } from '../../src/domain/uploads/uploads'
import { openTestDatabase, TEST_DB_KIND } from '../helpers'

/**
 * Byte counts beyond 2^31 (migration 0009): a person's storage and an upload's size hold several
 * GB on both databases, and PostgreSQL's int8 comes back as a number, never a string.
 */

const GB = 1024 ** 3

async function migratedWithUser() {
  const handle = openTestDatabase()
  await handle.migrate()
  const at = new Date().toISOString()
  const userId = randomUUID()
  await handle.db
    .insertInto('users')
    .values({
      id: userId,
      mobile: null,
      nickname: '用户',
      avatar_url: null,
      gender: 'unknown',
      role: 'patient',
      password_hash: null,
      wechat_openid: null,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    })
    .execute()
  return { handle, userId }
}

test(`a 3 GB usage round-trips through the quota functions as a number (${TEST_DB_KIND})`, async () => {
  const { handle, userId } = await migratedWithUser()
  const now = new Date()
  // 2 GB + 1 GB: the sum passes 2^31 inside the conditional UPDATE itself.
  assert.equal(await reserveStorage(handle.db, userId, 2 * GB, 10 * GB, now), true)
  assert.equal(await reserveStorage(handle.db, userId, GB, 10 * GB, now), true)
  const row = await handle.db
    .selectFrom('storage_usage')
    .select('used_bytes')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
  assert.equal(row.used_bytes, 3 * GB)
  assert.equal(typeof row.used_bytes, 'number')
  assert.deepEqual(await storageQuota(handle.db, userId, 10 * GB), {
    usedBytes: 3 * GB,
    quotaBytes: 10 * GB,
  })
  // The quota check still refuses what does not fit.
  assert.equal(await reserveStorage(handle.db, userId, 8 * GB, 10 * GB, now), false)
  await releaseStorage(handle.db, userId, GB + 5, now)
  const after = await storageQuota(handle.db, userId, 10 * GB)
  assert.equal(after.usedBytes, 2 * GB - 5)
  await handle.destroy()
})

test(`every byte count of the records tables holds more than 2^31 (${TEST_DB_KIND})`, async () => {
  const { handle, userId } = await migratedWithUser()
  const big = 5 * GB + 123
  await createJob(handle.db, {
    kind: 'upload',
    userId,
    stagingPrefix: 'staging/x/',
    fileName: 'big.zip',
    totalBytes: big,
    receivedBytes: big - 1,
  })
  const job = await handle.db
    .selectFrom('ingest_jobs')
    .select(['total_bytes', 'received_bytes'])
    .executeTakeFirstOrThrow()
  assert.deepEqual(job, { total_bytes: big, received_bytes: big - 1 })

  if (TEST_DB_KIND === 'postgres') {
    const types = await sql<{ table_name: string; column_name: string; data_type: string }>`
      select table_name, column_name, data_type from information_schema.columns
      where table_schema = current_schema()
        and column_name in ('used_bytes', 'total_bytes', 'received_bytes', 'size_bytes', 'file_size')
        and table_name in ('storage_usage', 'ingest_jobs', 'exams', 'instances', 'exam_files')
      order by table_name, column_name`.execute(handle.db)
    assert.deepEqual(
      types.rows.map((row) => `${row.table_name}.${row.column_name} ${row.data_type}`),
      [
        'exam_files.size_bytes bigint',
        'exams.size_bytes bigint',
        'ingest_jobs.received_bytes bigint',
        'ingest_jobs.total_bytes bigint',
        'instances.file_size bigint',
        'storage_usage.used_bytes bigint',
      ],
    )
    // count(*) is int8 too: a number now, as on SQLite.
    const counted = await handle.db
      .selectFrom('ingest_jobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    assert.equal(counted.n, 1)
  }
  await handle.destroy()
})

test('int8 text becomes a number while exact, and stays the exact text beyond 2^53', () => {
  assert.equal(parseInt8('3221225472'), 3 * GB)
  assert.equal(parseInt8('-5'), -5)
  assert.equal(parseInt8('9007199254740991'), Number.MAX_SAFE_INTEGER)
  assert.equal(parseInt8('9007199254740993'), '9007199254740993')
})
