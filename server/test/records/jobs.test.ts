import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'

import os, { hostname } from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import pino from 'pino'
import pg from 'pg'
import { buildApp } from '../../src/app'
import { type DatabaseConfig, DEVELOPMENT_ID_CARD_KEY } from '../../src/config'
import { createFieldCipher } from '../../src/crypto/field-cipher'
import type { DB } from '../../src/db'
import {
  createJob,
  createJobRunner,
  enqueueJob,
  JOB_RETRIES_EXHAUSTED,
  JOB_WORKER_LOST,
  JobFailure,
  type JobRunner,
  LeaseLostError,
  type JobKind,
  type JobRunnerOptions,
  waitForJob,
} from '../../src/jobs/runner'
import { releaseStorage, reserveStorage, storageQuota } from '../../src/domain/uploads/uploads'
import { LocalObjectStore } from '../../src/storage'
import { signUp } from '../domain/profile/support'
import { closeAfter, isolatedDatabase, openTestDatabase, TEST_PG_URL, testConfig } from '../helpers'

/**
 * The job runner on its own (no HTTP): dispatch, retries, final failures in Chinese, takeover of jobs
 * whose worker died, leases that keep a long job from running twice, and (PostgreSQL) two runners
 * sharing work through pg-boss. Runs on both databases.
 */

const root = mkdtempSync(path.join(os.tmpdir(), 'jobs-test-'))
after(() => rmSync(root, { recursive: true, force: true }))
const store = new LocalObjectStore(path.join(root, 'objects'))
const cipher = createFieldCipher(DEVELOPMENT_ID_CARD_KEY)
const log = pino({ level: 'silent' })
const database = isolatedDatabase()
let db: DB
let main: JobRunner

before(async () => {
  const handle = openTestDatabase(database)
  await handle.migrate()
  db = handle.db
  main = runner()
  await main.start()
})

/** pg-boss's own schema beside ours; the helpers drop only ours. */
function dropPgBossAfter(schema: string): void {
  closeAfter(async () => {
    const client = new pg.Client({ connectionString: TEST_PG_URL })
    await client.connect()
    await client.query(`drop schema if exists "${schema}_pgboss" cascade`)
    await client.end()
  })
}
if (database.kind === 'postgres') dropPgBossAfter(database.schema!)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The kinds the runners of this file serve: listed at module load, before any runner is made. */
const TEST_KINDS: JobKind[] = []
function testKind(
  kind: string,
  process: JobKind['process'],
  options: Pick<JobKind, 'onFailed'> = {},
): void {
  TEST_KINDS.push({ kind, process, ...options })
}

/** Calls per job id, per kind: a job must never run twice at once. */
const calls = new Map<string, number>()
const count = (id: string) => calls.set(id, (calls.get(id) ?? 0) + 1)
const failures = new Map<string, number>()

testKind('test-ok', async (job) => {
  count(job.id)
  return { storedCount: 2, duplicateCount: 1, message: null, result: { ok: job.id } }
})
testKind('test-flaky', async (job, ctx) => {
  count(job.id)
  // Fails the first two attempts with a surprise, then works.
  if (ctx.attempt < 3) throw new Error('store hiccup')
  return { storedCount: 1 }
})
testKind(
  'test-broken',
  async (job, ctx) => {
    count(job.id)
    // An attempt that wrote objects, then broke before committing anything.
    await ctx.store.put(`objects/${ctx.batchId}/0.dcm`, Buffer.from('x'), {
      contentType: 'application/dicom',
    })
    throw new Error('always broken')
  },
  { onFailed: async (job) => void failures.set(job.id, (failures.get(job.id) ?? 0) + 1) },
)
/** Hooks that take a while: whoever reads `failed` must already see what they did. */
const slowHook = async (job: { id: string }) => {
  await sleep(200)
  failures.set(job.id, (failures.get(job.id) ?? 0) + 1)
}
testKind(
  'test-refused',
  async (job) => {
    count(job.id)
    throw new JobFailure('文件不是 DICOM 格式')
  },
  { onFailed: slowHook },
)
/** Whether the staging copy was still there when the failure became visible (the hook's turn). */
const stagingAtFailure = new Map<string, boolean>()
testKind(
  'test-staged-refused',
  async (job) => {
    count(job.id)
    throw new JobFailure('压缩包中没有 DICOM 文件')
  },
  {
    onFailed: async (job) =>
      void stagingAtFailure.set(job.id, await store.exists(`${job.staging_prefix}0000000000000`)),
  },
)
testKind('test-slow', async (job) => {
  count(job.id)
  await sleep(400)
  return { storedCount: 1 }
})
testKind('test-long', async (job) => {
  count(job.id)
  await sleep(1500)
  return { storedCount: 1 }
})

function runner(options: Partial<JobRunnerOptions> = {}): JobRunner {
  const jobs = createJobRunner({
    kinds: TEST_KINDS,
    db,
    store,
    cipher,
    log,
    retryDelayMs: () => 20,
    sweepMs: 200,
    ...(database.kind === 'postgres'
      ? { postgres: { url: database.url, schema: database.schema } }
      : {}),
    ...options,
  })
  closeAfter(() => jobs.stop())
  return jobs
}

const newJob = (kind: string) => ({ kind, stagingPrefix: `staging/test/${randomUUID()}/` })

test('an enqueued job runs once and ends done with its counts and result', async () => {
  const input = newJob('test-ok')
  await store.put(`${input.stagingPrefix}part-1`, Buffer.from('bytes'), { contentType: 'x/y' })
  const queued = await enqueueJob(main, input)
  assert.equal(queued.status, 'queued')
  const job = await waitForJob(main, queued.id, { timeoutMs: 10_000 })
  assert.equal(job?.status, 'done')
  assert.equal(job.stored_count, 2)
  assert.equal(job.duplicate_count, 1)
  assert.equal(job.attempts, 1)
  assert.deepEqual(JSON.parse(job.result_json!), { ok: job.id })
  assert.ok(job.finished_at)
  assert.equal(calls.get(job.id), 1)
  // The staging copy is gone once the job is over (removed just after the row says done).
  for (let i = 0; i < 40 && (await store.exists(`${input.stagingPrefix}part-1`)); i++)
    await sleep(25)
  assert.equal(await store.exists(`${input.stagingPrefix}part-1`), false)
})

test('a job created while receiving waits until it is enqueued', async () => {
  const created = await createJob(db, newJob('test-ok'))
  await main.sweep()
  await sleep(300)
  assert.equal(calls.get(created.id), undefined)
  await enqueueJob(main, { id: created.id })
  const job = await waitForJob(main, created.id, { timeoutMs: 10_000 })
  assert.equal(job?.status, 'done')
  // Enqueuing twice is a programming error, not a second run.
  await assert.rejects(enqueueJob(main, { id: created.id }), /not receiving/)
})

test('a failed attempt is retried; the third attempt succeeds', async () => {
  const queued = await enqueueJob(main, newJob('test-flaky'))
  const job = await waitForJob(main, queued.id, { timeoutMs: 15_000 })
  assert.equal(job?.status, 'done')
  assert.equal(job.attempts, 3)
  assert.equal(calls.get(job.id), 3)
})

test('a job failing every attempt ends failed in Chinese, its objects gone, onFailed once', async () => {
  const queued = await enqueueJob(main, newJob('test-broken'))
  const job = await waitForJob(main, queued.id, { timeoutMs: 15_000 })
  assert.equal(job?.status, 'failed')
  assert.equal(job.message, JOB_RETRIES_EXHAUSTED)
  assert.equal(job.attempts, 3)
  assert.equal(calls.get(job.id), 3)
  assert.equal(failures.get(job.id), 1)
  for (let attempt = 1; attempt <= 3; attempt++) {
    assert.equal(await store.exists(`objects/${job.id}-a${attempt}/0.dcm`), false)
  }
})

test('a failed job has no staging copy left by the time it reads failed', async () => {
  const input = newJob('test-staged-refused')
  await store.put(`${input.stagingPrefix}0000000000000`, Buffer.from('zip chunk'), {
    contentType: 'application/octet-stream',
  })
  const queued = await enqueueJob(main, input)
  const job = await waitForJob(main, queued.id, { timeoutMs: 15_000 })
  assert.equal(job?.status, 'failed')
  // The hook runs in the transaction that marks it failed: the chunk was already gone then.
  assert.equal(stagingAtFailure.get(job.id), false)
  assert.equal(await store.exists(`${input.stagingPrefix}0000000000000`), false)
})

test('a JobFailure ends the job at once with its own message', async () => {
  const queued = await enqueueJob(main, newJob('test-refused'))
  // Read the row as often as possible (not waitForJob, which wakes when the runner is done).
  let job: Awaited<ReturnType<typeof waitForJob>>
  for (let i = 0; i < 2000; i++) {
    job = await db
      .selectFrom('ingest_jobs')
      .selectAll()
      .where('id', '=', queued.id)
      .executeTakeFirst()
    if (job?.status === 'failed') break
    await sleep(5)
  }
  assert.equal(job?.status, 'failed')
  assert.equal(job.message, '文件不是 DICOM 格式')
  assert.equal(job.attempts, 1)
  // The slow hook ran in the transaction that said failed: done by the time anyone reads it.
  assert.equal(failures.get(job.id), 1)
})

/** What a processor's quota hold looks like: the held bytes in result_json, the usage row. */
const holds = new Map<string, string>()
testKind(
  'test-hold',
  async (job, ctx) => {
    count(job.id)
    await ctx.db.transaction().execute(async (trx) => {
      await reserveStorage(trx, holds.get(job.id)!, 300, 10_000, new Date())
      await trx
        .updateTable('ingest_jobs')
        .set({ result_json: JSON.stringify({ reservedBytes: 300 }) })
        .where('id', '=', job.id)
        .execute()
    })
    if (job.file_name === 'refuse') throw new JobFailure('压缩包中没有 DICOM 文件')
    return { storedCount: 1 }
  },
  {
    // Gives back what result_json says is held, as the upload hook does.
    onFailed: async (job, ctx) => {
      const row = await ctx.db
        .selectFrom('ingest_jobs')
        .select('result_json')
        .where('id', '=', job.id)
        .executeTakeFirstOrThrow()
      const held = row.result_json
        ? (JSON.parse(row.result_json) as { reservedBytes: number }).reservedBytes
        : 0
      await sleep(100)
      await releaseStorage(ctx.db, holds.get(job.id)!, held, new Date())
    },
  },
)

async function holdJob(fileName: string) {
  const { user } = await signUp(db, new Date())
  const input = { ...newJob('test-hold'), id: randomUUID(), fileName }
  holds.set(input.id, user.id)
  const queued = await enqueueJob(main, input)
  const job = await waitForJob(main, queued.id, { timeoutMs: 10_000 })
  const { usedBytes } = await storageQuota(db, user.id, 10_000)
  return { job, usedBytes }
}

test('an outcome without a result keeps the result_json the processor wrote', async () => {
  const { job, usedBytes } = await holdJob('ok')
  assert.equal(job?.status, 'done')
  assert.deepEqual(JSON.parse(job.result_json!), { reservedBytes: 300 })
  assert.equal(usedBytes, 300)
})

test('a failed job reads failed only with its hook done: what result_json held is given back', async () => {
  const { job, usedBytes } = await holdJob('refuse')
  assert.equal(job?.status, 'failed')
  assert.equal(job.message, '压缩包中没有 DICOM 文件')
  assert.deepEqual(JSON.parse(job.result_json!), { reservedBytes: 300 })
  assert.equal(usedBytes, 0)
})

/** A worker that stalled: another took its job before it committed its quota settlement. */
const leaseErrors = new Map<string, unknown>()
testKind('test-stalled', async (job, ctx) => {
  count(job.id)
  await db
    .updateTable('ingest_jobs')
    .set({
      locked_by: 'other-host|123|x',
      locked_until: new Date(Date.now() + 3_600_000).toISOString(),
      attempts: job.attempts + 1,
    })
    .where('id', '=', job.id)
    .execute()
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await releaseStorage(trx, holds.get(job.id)!, 400, new Date())
    })
  } catch (error) {
    leaseErrors.set(job.id, error)
    throw error
  }
  return { storedCount: 1 }
})

test('a worker whose lease was taken cannot commit: the quota is not given back twice', async () => {
  const { user } = await signUp(db, new Date())
  assert.equal(await reserveStorage(db, user.id, 1000, 10_000, new Date()), true)
  const input = { ...newJob('test-stalled'), id: randomUUID() }
  holds.set(input.id, user.id)
  await enqueueJob(main, input)
  for (let i = 0; i < 200 && !leaseErrors.has(input.id); i++) await sleep(25)
  assert.ok(leaseErrors.get(input.id) instanceof LeaseLostError)
  await sleep(200)
  assert.equal((await storageQuota(db, user.id, 10_000)).usedBytes, 1000)
  // The row is the new holder's, untouched by the stalled worker.
  const row = await db
    .selectFrom('ingest_jobs')
    .selectAll()
    .where('id', '=', input.id)
    .executeTakeFirstOrThrow()
  assert.equal(row.status, 'running')
  assert.equal(row.locked_by, 'other-host|123|x')
  assert.equal(row.attempts, 2)
  assert.equal(calls.get(input.id), 1)
  // Not left for the later tests' runners to take.
  await db.deleteFrom('ingest_jobs').where('id', '=', input.id).execute()
})

/** The pid of a process that has exited (so `kill -0` says ESRCH). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  })
  return Number(child.stdout)
}

async function insertRunning(kind: string, lockedBy: string, lockedUntil: Date, attempts = 1) {
  const job = await createJob(db, newJob(kind))
  await db
    .updateTable('ingest_jobs')
    .set({
      status: 'running',
      locked_by: lockedBy,
      locked_until: lockedUntil.toISOString(),
      attempts,
    })
    .where('id', '=', job.id)
    .execute()
  return job
}

test('a job whose worker process died is taken again at once', async () => {
  const job = await insertRunning(
    'test-ok',
    `${hostname()}|${deadPid()}|dead`,
    new Date(Date.now() + 60_000),
  )
  await main.sweep()
  const done = await waitForJob(main, job.id, { timeoutMs: 10_000 })
  assert.equal(done?.status, 'done')
  assert.equal(done.attempts, 2)
  assert.equal(done.locked_by, main.workerId)
})

test('a job held by a live lease elsewhere is left alone until the lease runs out', async () => {
  const job = await insertRunning('test-ok', 'other-host|123|x', new Date(Date.now() + 1200))
  await main.sweep()
  await sleep(400)
  assert.equal(calls.get(job.id), undefined)
  const done = await waitForJob(main, job.id, { timeoutMs: 10_000 })
  assert.equal(done?.status, 'done')
  assert.equal(calls.get(job.id), 1)
})

test('a job that keeps losing its worker ends failed without running again', async () => {
  const job = await insertRunning('test-ok', 'other-host|123|x', new Date(Date.now() - 1000), 3)
  await main.sweep()
  const done = await waitForJob(main, job.id, { timeoutMs: 10_000 })
  assert.equal(done?.status, 'failed')
  assert.equal(done.message, JOB_WORKER_LOST)
  assert.equal(calls.get(job.id), undefined)
})

test('a job longer than the lease keeps it: a second runner never runs it too', async () => {
  // From here on only the runners a test makes take jobs.
  await main.stop()
  const a = runner({ leaseMs: 500 })
  const b = runner({ leaseMs: 500 })
  await a.start()
  const queued = await enqueueJob(a, newJob('test-long'))
  // Wait until a holds it, then let b sweep for the whole run.
  for (let i = 0; i < 50 && !calls.get(queued.id); i++) await sleep(50)
  await b.start()
  const job = await waitForJob(a, queued.id, { timeoutMs: 10_000 })
  assert.equal(job?.status, 'done')
  assert.equal(calls.get(queued.id), 1)
  assert.equal(job.attempts, 1)
  assert.equal(job.locked_by, a.workerId)
  await a.stop()
  await b.stop()
})

test(
  'PostgreSQL: two runners share the queue through pg-boss, each job once',
  { skip: database.kind === 'postgres' ? false : 'PostgreSQL only (pg-boss)' },
  async () => {
    // Sweeps far apart: what is shared here is shared by pg-boss's delivery.
    const a = runner({ sweepMs: 60_000 })
    const b = runner({ sweepMs: 60_000 })
    await a.start()
    await b.start()
    const ids: string[] = []
    for (let i = 0; i < 10; i++) ids.push((await enqueueJob(a, newJob('test-slow'))).id)
    const jobs = await Promise.all(ids.map((id) => waitForJob(a, id, { timeoutMs: 30_000 })))
    assert.ok(jobs.every((job) => job?.status === 'done'))
    assert.ok(ids.every((id) => calls.get(id) === 1))
    const workers = new Set(jobs.map((job) => job!.locked_by))
    assert.ok(workers.has(a.workerId) && workers.has(b.workerId), [...workers].join(', '))
  },
)

testKind('test-close', async (job) => {
  count(job.id)
  await sleep(600)
  return { storedCount: 7 }
})

test('closing the app lets a running job finish before the database closes', async () => {
  // A database that outlives the app: an SQLite file, or a schema of the test PostgreSQL.
  const appDatabase: DatabaseConfig =
    database.kind === 'postgres'
      ? isolatedDatabase()
      : { kind: 'sqlite', file: path.join(root, 'close.sqlite') }
  if (appDatabase.kind === 'postgres') dropPgBossAfter(appDatabase.schema!)
  const app = await buildApp(testConfig({ database: appDatabase }), { jobKinds: TEST_KINDS })
  await app.ready()
  const queued = await enqueueJob(app.jobs, newJob('test-close'))
  for (let i = 0; i < 100 && !calls.get(queued.id); i++) await sleep(20)
  assert.equal(calls.get(queued.id), 1)
  await app.close()

  const handle = openTestDatabase(appDatabase)
  const job = await handle.db
    .selectFrom('ingest_jobs')
    .selectAll()
    .where('id', '=', queued.id)
    .executeTakeFirstOrThrow()
  assert.equal(job.status, 'done')
  assert.equal(job.stored_count, 7)
})
