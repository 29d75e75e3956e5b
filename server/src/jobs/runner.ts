import { randomBytes, randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { hostname } from 'node:os'
import type { FastifyBaseLogger } from 'fastify'
import { sql, type Selectable, type Transaction, TransactionBuilder } from 'kysely'
import PgBoss from 'pg-boss'
import { REASONS, type Reason } from '@contract/reasons'
import type { FieldCipher } from '../crypto/field-cipher'
import type { DB } from '../db'
import type { Database, IngestJobsTable } from '../db/schema'
import { STORAGE_FULL } from '../http/errors'
import { fullStorageOf, isStorageFull, type ObjectStore } from '../storage'

/*
 * Ingest work (STOW-RS pushes, zip uploads) runs as jobs. The row in `ingest_jobs` is the truth: its
 * status is what a person sees, and a worker holds it by a lease (locked_by, locked_until) that it
 * renews while it works. Whoever flips a row from queued (or from an expired lease) to running in one
 * UPDATE owns it; nobody else can, so a job never runs twice at once.
 *
 * - SQLite (one process): the runner looks for work in the table when a job is enqueued, when one
 *   ends, and every few seconds.
 * - PostgreSQL (several processes): pg-boss (its own schema in the same database) carries the job id
 *   to whichever process polls first, so work is shared at once; the same table sweep runs too, as
 *   the recovery path (a dispatch lost between the insert and the send, a worker that died).
 *   pg-boss 10 has no heartbeat, so it cannot tell a long job from a dead worker; our lease can.
 *
 * A job whose worker died is taken again: at once when the dead worker was a process on this host
 * (its pid no longer exists), otherwise when its lease has run out. Each take counts an attempt; a
 * job that keeps failing (or keeps killing its worker) ends `failed` with a Chinese message.
 *
 * A worker that lost its lease (it stalled past locked_until and another took the job) may still be
 * running the processor. So every transaction a processor opens on ctx.db first confirms, inside
 * that transaction, that this attempt still holds the job, and fails with LeaseLostError if not: a
 * lost worker can never commit rows or settle a quota the new holder settles too. Writes that must
 * not happen twice therefore go in a transaction. Ending a job is one transaction as well: the row
 * turns failed together with the onFailed hook's writes, so whoever reads `failed` sees them.
 */

export type JobRow = Selectable<IngestJobsTable>

export const JOB_STATUS = {
  receiving: 'receiving',
  queued: 'queued',
  running: 'running',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
} as const

const FINAL = new Set<string>([JOB_STATUS.done, JOB_STATUS.failed, JOB_STATUS.cancelled])
export const isFinalJob = (job: Pick<JobRow, 'status'>) => FINAL.has(job.status)

/** Shown when every attempt threw something we did not foresee (a bug, a store that is down). */
export const JOB_RETRIES_EXHAUSTED = '处理失败：服务器多次尝试仍未完成，请稍后重新提交'
/** Shown when the job kept stopping its worker (a crash, a kill) attempt after attempt. */
export const JOB_WORKER_LOST = '处理失败：处理过程多次意外中断，已停止处理，请稍后重新提交'
/** A transfer left half way (no chunk for a long time). */
export const JOB_ABANDONED = '上传长时间未完成，已取消'

/**
 * Thrown by a processor's transaction when this attempt no longer holds its job (another worker
 * took it): the transaction is rolled back and the attempt ends without touching the row.
 */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError'
  constructor(jobId: string) {
    super(`ingest job ${jobId} is held by another worker now`)
  }
}

/** A failure that retrying cannot fix (bad input): the job ends failed with this Chinese message. */
export class JobFailure extends Error {
  override name = 'JobFailure'
}

export interface JobContext {
  /** Its transactions commit only while this attempt holds the job (else LeaseLostError). */
  db: DB
  store: ObjectStore
  cipher: FieldCipher
  /** The app's clock, for the records the job writes. */
  now: () => Date
  log: FastifyBaseLogger
  /** 1 for the first take, 2 for the next... */
  attempt: number
  /**
   * Pass this to ingestFiles as its batchId. It differs per attempt: a retry must never write (and
   * then delete as duplicates) the object keys an earlier attempt committed rows for.
   */
  batchId: string
  /** Aborted when the runner stops or the lease was lost (another worker took the job). */
  signal: AbortSignal
}

export interface JobOutcome {
  /** Default 'done'. 'failed' ends the job without retrying, with `message` for the person. */
  status?: 'done' | 'failed'
  examId?: string | null
  storedCount?: number
  duplicateCount?: number
  skippedCount?: number
  message?: string | null
  /** For code, beside `message`: why it failed, when code acts on it (contract/reasons.ts). */
  reason?: Reason | null
  /**
   * Stored as result_json (the STOW-RS answer needs the per-instance outcome). Left out, the
   * row keeps the result_json the processor wrote while it ran.
   */
  result?: unknown
}

export type JobProcessor = (job: JobRow, ctx: JobContext) => Promise<JobOutcome>

/**
 * One kind of job ('stow', 'upload'): its work, and what to undo when it fails for good. The app's
 * kinds are listed once, in src/job-kinds.ts, and handed to the runner when it is made.
 */
export interface JobKind {
  kind: string
  process: JobProcessor

  /**
   * Called once when a job ends failed (or, still receiving, abandoned) for good, whatever the
   * cause (processor's JobFailure or failed outcome, retries exhausted, worker lost): give back a
   * reserved quota, mark the exam failed... It runs inside the transaction that marks the row
   * (ctx.db is that transaction; use only it), so nobody sees the job failed before its writes.
   * If it throws, its writes are rolled back, the error is logged and the row still ends failed.
   */
  onFailed?: (job: JobRow, ctx: Omit<JobContext, 'attempt' | 'batchId' | 'signal'>) => Promise<void>
}

/** The kinds by name; a name twice or not of `a-z0-9-` is a programming error. */
function kindTable(kinds: readonly JobKind[]): Map<string, JobKind> {
  const table = new Map<string, JobKind>()
  for (const entry of kinds) {
    if (!/^[a-z][a-z0-9-]*$/.test(entry.kind)) throw new Error(`invalid job kind ${entry.kind}`)
    if (table.has(entry.kind)) throw new Error(`job kind ${entry.kind} listed twice`)
    table.set(entry.kind, entry)
  }
  return table
}

export interface JobRunnerOptions {
  /** The kinds this runner serves (src/job-kinds.ts for the app's). */
  kinds: readonly JobKind[]
  db: DB
  store: ObjectStore
  cipher: FieldCipher
  log: FastifyBaseLogger
  /** The app's clock, handed to processors. Leases and job times always use the real clock. */
  now?: () => Date
  /** pg-boss dispatch (PostgreSQL): the database URL and our schema; pg-boss gets `<schema>_pgboss`. */
  postgres?: { url: string; schema?: string }
  /**
   * Runs pg-boss's start and queue creation while no other process does (the database handle's
   * withStartupLock): several processes doing it at once deadlocked (40P01) and one failed to start.
   */
  startupLock?: <T>(work: () => Promise<T>) => Promise<T>
  /** Jobs run at once by this process (decoding is CPU-bound; the machine has few cores). */
  concurrency?: number
  leaseMs?: number
  /** How often the table is searched for work nobody holds. */
  sweepMs?: number
  maxAttempts?: number
  /** Wait before retry n+1 after a failed attempt n. */
  retryDelayMs?: (attempt: number) => number
  /** How long stop() waits for running jobs. */
  stopGraceMs?: number
  /** A job left in 'receiving' untouched this long is cancelled and its staging deleted. */
  abandonAfterMs?: number
}

export interface NewJob {
  id?: string
  kind: string
  hospitalId?: string | null
  userId?: string | null
  examId?: string | null
  stagingPrefix: string
  fileName?: string | null
  totalBytes?: number | null
  receivedBytes?: number
  /** A timer: not taken before this time (the app's clock, so tests step over it). */
  runAfter?: Date | null
  /** What the job acts on beyond an exam (a consultation's id, a refund number). */
  subjectId?: string | null
}

export interface JobRunner {
  /** `host|pid|random`: who holds a job (locked_by). */
  readonly workerId: string
  readonly db: DB
  /** Whether this runner has the kind (enqueueJob refuses any other). */
  serves(kind: string): boolean
  start(): Promise<void>
  stop(): Promise<void>
  /** Internal plumbing for enqueueJob and waitForJob. */
  dispatch(job: JobRow): Promise<void>
  readonly events: EventEmitter
  /** Runs one sweep now (tests; normally on a timer). Resolves when the claimed jobs have started. */
  sweep(): Promise<void>
}

const SECOND = 1000
const DEFAULTS = {
  concurrency: 2,
  leaseMs: 30 * SECOND,
  sweepMs: 3 * SECOND,
  maxAttempts: 3,
  retryDelayMs: (attempt: number) => 2 * SECOND * 4 ** (attempt - 1),
  stopGraceMs: 8 * SECOND,
  abandonAfterMs: 24 * 60 * 60 * SECOND,
}

const iso = (ms: number) => new Date(ms).toISOString()
const queueName = (kind: string) => `ingest-${kind}`

/** A row for work that is still arriving (bytes go to staging first); enqueue it when complete. */
export async function createJob(db: DB, input: NewJob): Promise<JobRow> {
  return insertJob(db, input, JOB_STATUS.receiving)
}

async function insertJob(db: DB, input: NewJob, status: string): Promise<JobRow> {
  const at = iso(Date.now())
  const row: JobRow = {
    id: input.id ?? randomUUID(),
    kind: input.kind,
    hospital_id: input.hospitalId ?? null,
    user_id: input.userId ?? null,
    exam_id: input.examId ?? null,
    status,
    staging_prefix: input.stagingPrefix,
    file_name: input.fileName ?? null,
    total_bytes: input.totalBytes ?? null,
    received_bytes: input.receivedBytes ?? 0,
    stored_count: 0,
    duplicate_count: 0,
    skipped_count: 0,
    attempts: 0,
    message: null,
    reason: null,
    result_json: null,
    locked_by: null,
    locked_until: null,
    created_at: at,
    updated_at: at,
    finished_at: null,
    run_after: input.runAfter ? input.runAfter.toISOString() : null,
    subject_id: input.subjectId ?? null,
  }
  await db.insertInto('ingest_jobs').values(row).execute()
  return row
}

/**
 * A queued job's row, inserted by the caller's own transaction (a timer or a refund that must exist
 * exactly when the state change that needs it commits). Nothing is dispatched: the sweep finds it
 * once it is due, or call `runner.dispatch(row)` after the commit to start it at once.
 */
export async function insertQueuedJob(db: DB, input: NewJob): Promise<JobRow> {
  return insertJob(db, input, JOB_STATUS.queued)
}

/**
 * Queues a job: a new one (NewJob), or one created earlier in 'receiving' whose bytes are now all
 * in staging (`{ id }`). Answers the queued row; the job starts as soon as a worker is free.
 */
export async function enqueueJob(
  runner: JobRunner,
  input: NewJob | { id: string },
): Promise<JobRow> {
  let job: JobRow | undefined
  if ('kind' in input) {
    if (!runner.serves(input.kind)) throw new Error(`no processor for job kind ${input.kind}`)
    job = await insertJob(runner.db, input, JOB_STATUS.queued)
  } else {
    job = await runner.db
      .updateTable('ingest_jobs')
      .set({ status: JOB_STATUS.queued, updated_at: iso(Date.now()) })
      .where('id', '=', input.id)
      .where('status', '=', JOB_STATUS.receiving)
      .returningAll()
      .executeTakeFirst()
    if (!job) throw new Error(`job ${input.id} is not receiving`)
  }
  await runner.dispatch(job)
  return job
}

/**
 * Waits until the job is done, failed or cancelled, or `timeoutMs` has passed; answers the row as
 * it then is (not final on timeout), undefined when there is no such job.
 */
export async function waitForJob(
  runner: JobRunner,
  jobId: string,
  options: { timeoutMs: number; pollMs?: number },
): Promise<JobRow | undefined> {
  const deadline = Date.now() + options.timeoutMs
  const pollMs = options.pollMs ?? 250
  for (;;) {
    const job = await runner.db
      .selectFrom('ingest_jobs')
      .selectAll()
      .where('id', '=', jobId)
      .executeTakeFirst()
    if (!job || isFinalJob(job)) return job
    const left = deadline - Date.now()
    if (left <= 0) return job
    // Woken at once when this process finishes it; polled when another process runs it.
    await new Promise<void>((resolve) => {
      const done = (id: string) => {
        if (id === jobId) finish()
      }
      const timer = setTimeout(() => finish(), Math.min(left, pollMs))
      const finish = () => {
        clearTimeout(timer)
        runner.events.off('finished', done)
        resolve()
      }
      runner.events.on('finished', done)
    })
  }
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const settings = { ...DEFAULTS, ...definedOnly(options) }
  const { db, store, cipher, log } = options
  const table = kindTable(options.kinds)
  const appNow = options.now ?? (() => new Date())
  const workerId = `${hostname()}|${process.pid}|${randomBytes(4).toString('hex')}`
  const events = new EventEmitter()
  events.setMaxListeners(0)
  const active = new Map<string, Promise<void>>()
  const stopController = new AbortController()
  let started = false
  let stopping = false
  let boss: PgBoss | undefined
  let sweepTimer: NodeJS.Timeout | undefined
  let sweeping: Promise<void> | undefined
  let kinds: string[] = []

  const jobLog = (job: Pick<JobRow, 'id' | 'kind'>) =>
    log.child({ jobId: job.id, jobKind: job.kind })

  /** Flips the row to running for us, if nobody else holds it. */
  async function claim(jobId: string, deadWorker?: string): Promise<JobRow | undefined> {
    const now = Date.now()
    const at = iso(now)
    const due = appNow().toISOString()
    return db
      .updateTable('ingest_jobs')
      .set({
        status: JOB_STATUS.running,
        locked_by: workerId,
        locked_until: iso(now + settings.leaseMs),
        attempts: sql<number>`attempts + 1`,
        updated_at: at,
      })
      .where('id', '=', jobId)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('status', '=', JOB_STATUS.queued),
            eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]),
            eb.or([eb('run_after', 'is', null), eb('run_after', '<=', due)]),
          ]),
          eb.and([eb('status', '=', JOB_STATUS.running), eb('locked_until', '<', at)]),
          ...(deadWorker
            ? [eb.and([eb('status', '=', JOB_STATUS.running), eb('locked_by', '=', deadWorker)])]
            : []),
        ]),
      )
      .returningAll()
      .executeTakeFirst()
  }

  /** Runs a claimed job to its next state; never throws. */
  function run(job: JobRow): Promise<void> {
    const work = runClaimed(job)
      .catch((error: unknown) => jobLog(job).error({ err: error }, 'ingest job bookkeeping failed'))
      .finally(() => {
        active.delete(job.id)
        events.emit('finished', job.id)
        // A slot is free: look for more at once (SQLite has no other dispatcher).
        if (!stopping && !boss) void sweepOnce()
      })
    active.set(job.id, work)
    return work
  }

  async function runClaimed(job: JobRow): Promise<void> {
    const entry = table.get(job.kind)
    const logger = jobLog(job)
    if (!entry) {
      // Another version of the server enqueued a kind we do not know: leave it for one that does.
      await release(job, Date.now() + settings.leaseMs)
      return
    }
    const baseCtx = { db, store, cipher, now: appNow, log: logger }
    if (job.attempts > settings.maxAttempts) {
      logger.warn({ attempts: job.attempts }, 'ingest job lost its worker too often; giving up')
      await finishFailed(job, JOB_WORKER_LOST, entry, baseCtx)
      return
    }
    await removeOrphanBatches(job, job.attempts - 1)

    const lease = new AbortController()
    const onStop = () => lease.abort()
    stopController.signal.addEventListener('abort', onStop)
    const heartbeat = setInterval(
      () => {
        void renew(job).then(
          (held) => {
            if (!held) {
              logger.warn('ingest job lease lost to another worker')
              lease.abort()
            }
          },
          (error: unknown) => logger.warn({ err: error }, 'ingest job lease renewal failed'),
        )
      },
      Math.max(200, Math.floor(settings.leaseMs / 3)),
    )
    heartbeat.unref()

    let outcome: JobOutcome | undefined
    let failure: unknown
    try {
      outcome = await entry.process(job, {
        ...baseCtx,
        db: fencedDb(db, (trx) => holdsLease(trx, job)),
        attempt: job.attempts,
        batchId: attemptBatchId(job.id, job.attempts),
        signal: lease.signal,
      })
    } catch (error) {
      failure = error
    } finally {
      clearInterval(heartbeat)
      stopController.signal.removeEventListener('abort', onStop)
    }
    // Someone else holds it now: their attempt settles it.
    if ((lease.signal.aborted && !stopping) || failure instanceof LeaseLostError) {
      if (failure instanceof LeaseLostError) logger.warn('ingest job lease lost before a commit')
      return
    }

    if (outcome) {
      if (outcome.status === 'failed') {
        await finishFailed(job, outcome.message ?? JOB_RETRIES_EXHAUSTED, entry, baseCtx, outcome)
      } else {
        await finish(job, JOB_STATUS.done, outcome)
      }
      return
    }
    if (failure instanceof JobFailure) {
      logger.info({ reason: failure.message }, 'ingest job failed')
      await finishFailed(job, failure.message, entry, baseCtx)
      return
    }
    if (isStorageFull(failure)) {
      // A full disk or bucket does not pass in the seconds between attempts: retrying only held
      // the staged bytes (and a waiting STOW request) on a full store. The job ends at once, its
      // staging removed; the sender sends again (STOW answers 507, an upload shows the reason).
      logger.error({ ...fullStorageOf(failure), attempt: job.attempts }, 'storage full')
      await finishFailed(job, STORAGE_FULL, entry, baseCtx, { reason: REASONS.storageFull })
      return
    }
    logger.error({ err: failure, attempt: job.attempts }, 'ingest job attempt failed')
    if (stopping) {
      // Interrupted by shutdown, not by the job: the next process takes it again.
      await release(job, Date.now())
      return
    }
    if (job.attempts >= settings.maxAttempts) {
      await finishFailed(job, JOB_RETRIES_EXHAUSTED, entry, baseCtx)
      return
    }
    const delay = settings.retryDelayMs(job.attempts)
    if (await release(job, Date.now() + delay)) {
      await boss
        ?.send(
          queueName(job.kind),
          { jobId: job.id },
          { ...sendOptions, startAfter: Math.ceil(delay / SECOND) },
        )
        .catch((error: unknown) => logger.warn({ err: error }, 'pg-boss retry send failed'))
    }
  }

  /**
   * Inside a processor's transaction: confirms this attempt still holds the job, renewing the
   * lease. On PostgreSQL the UPDATE also locks the row until the commit, so a takeover's claim
   * waits for it and then finds the lease renewed.
   */
  async function holdsLease(trx: Transaction<Database>, job: JobRow): Promise<void> {
    const result = await trx
      .updateTable('ingest_jobs')
      .set({ locked_until: iso(Date.now() + settings.leaseMs) })
      .where('id', '=', job.id)
      .where('locked_by', '=', workerId)
      .where('status', '=', JOB_STATUS.running)
      .where('attempts', '=', job.attempts)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) !== 1) throw new LeaseLostError(job.id)
  }

  async function renew(job: JobRow): Promise<boolean> {
    const result = await db
      .updateTable('ingest_jobs')
      .set({ locked_until: iso(Date.now() + settings.leaseMs) })
      .where('id', '=', job.id)
      .where('locked_by', '=', workerId)
      .where('status', '=', JOB_STATUS.running)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  /** Back to queued, not before `notBefore`. */
  async function release(job: JobRow, notBefore: number): Promise<boolean> {
    const result = await db
      .updateTable('ingest_jobs')
      .set({
        status: JOB_STATUS.queued,
        locked_by: null,
        locked_until: iso(notBefore),
        updated_at: iso(Date.now()),
      })
      .where('id', '=', job.id)
      .where('locked_by', '=', workerId)
      .where('status', '=', JOB_STATUS.running)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async function finish(job: JobRow, status: string, outcome: JobOutcome): Promise<boolean> {
    const won = await markFinished(db, job, status, outcome)
    // The staging copy served its purpose; the stored objects are under objects/.
    if (won) await store.deletePrefix(job.staging_prefix).catch(() => undefined)
    return won
  }

  /** Flips our running row to its final status; false when another worker holds it now. */
  async function markFinished(
    executor: DB | Transaction<Database>,
    job: JobRow,
    status: string,
    outcome: JobOutcome,
  ): Promise<boolean> {
    const at = iso(Date.now())
    const result = await executor
      .updateTable('ingest_jobs')
      .set({
        status,
        // locked_by stays: who ran it (support questions, the two-process test).
        locked_until: null,
        exam_id: outcome.examId ?? job.exam_id,
        stored_count: outcome.storedCount ?? 0,
        duplicate_count: outcome.duplicateCount ?? 0,
        skipped_count: outcome.skippedCount ?? 0,
        message: outcome.message ?? null,
        reason: outcome.reason ?? null,
        // What the processor recorded while it ran (an upload's quota held) stays unless replaced.
        ...(outcome.result === undefined ? {} : { result_json: JSON.stringify(outcome.result) }),
        updated_at: at,
        finished_at: at,
      })
      .where('id', '=', job.id)
      .where('locked_by', '=', workerId)
      .where('status', '=', JOB_STATUS.running)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async function finishFailed(
    job: JobRow,
    message: string,
    options: Pick<JobKind, 'onFailed'>,
    ctx: Omit<JobContext, 'attempt' | 'batchId' | 'signal'>,
    outcome: JobOutcome = {},
  ): Promise<void> {
    await removeOrphanBatches(job, job.attempts)
    const final = { ...outcome, message }
    // The staging copy goes before `failed` is visible: whoever reads 失败 finds nothing kept.
    const markAndClear = async (executor: DB | Transaction<Database>) => {
      if (!(await markFinished(executor, job, JOB_STATUS.failed, final))) return false
      await store.deletePrefix(job.staging_prefix).catch(() => undefined)
      return true
    }
    await endWithHook(ctx, options, job, markAndClear, () => markAndClear(db))
  }

  /**
   * Ends a job: `mark` flips its row (false when the job is no longer ours to end) and the onFailed
   * hook runs in the same transaction. A hook that throws is logged and left out: `markAlone`.
   */
  async function endWithHook(
    ctx: Omit<JobContext, 'attempt' | 'batchId' | 'signal'>,
    options: Pick<JobKind, 'onFailed'>,
    job: JobRow,
    mark: (executor: Transaction<Database>) => Promise<boolean>,
    markAlone: () => Promise<boolean>,
  ): Promise<boolean> {
    const hook = options.onFailed
    if (!hook) return markAlone()
    try {
      return await db.transaction().execute(async (trx) => {
        if (!(await mark(trx))) return false
        await hook(job, { ...ctx, db: trx })
        return true
      })
    } catch (error) {
      ctx.log.error({ err: error }, 'ingest job onFailed hook failed')
      return markAlone()
    }
  }

  /**
   * Objects an earlier attempt wrote and never committed (its worker died between the writes and
   * the transaction). An attempt that did commit is left alone: its rows point at those objects.
   */
  async function removeOrphanBatches(job: JobRow, upToAttempt: number): Promise<void> {
    for (let attempt = 1; attempt <= upToAttempt; attempt++) {
      const prefix = batchPrefix(attemptBatchId(job.id, attempt))
      const used = await db
        .selectFrom('instances')
        .select('id')
        .where('file_key', 'like', `${prefix}%`)
        .limit(1)
        .executeTakeFirst()
      if (!used) await store.deletePrefix(prefix).catch(() => undefined)
    }
  }

  /** Claims what nobody holds (queued and due, leases run out, dead local workers) up to capacity. */
  function sweepOnce(): Promise<void> {
    sweeping ??= sweepTable()
      .catch((error: unknown) => log.error({ err: error }, 'ingest job sweep failed'))
      .finally(() => {
        sweeping = undefined
      })
    return sweeping
  }

  async function sweepTable(): Promise<void> {
    if (!started || stopping || kinds.length === 0) return
    const at = iso(Date.now())
    await cancelAbandoned()
    const free = settings.concurrency - active.size
    if (free <= 0) return
    const due = appNow().toISOString()
    const candidates = await db
      .selectFrom('ingest_jobs')
      .select(['id', 'status', 'locked_by', 'locked_until'])
      .where('kind', 'in', kinds)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('status', '=', JOB_STATUS.queued),
            eb.or([eb('run_after', 'is', null), eb('run_after', '<=', due)]),
          ]),
          eb('status', '=', JOB_STATUS.running),
        ]),
      )
      .orderBy('created_at')
      .limit(50)
      .execute()
    let taken = 0
    for (const candidate of candidates) {
      if (taken >= free || stopping) break
      if (active.has(candidate.id)) continue
      let dead: string | undefined
      if (candidate.status === JOB_STATUS.running) {
        const expired = (candidate.locked_until ?? '') < at
        dead =
          candidate.locked_by && isDeadLocalWorker(candidate.locked_by)
            ? candidate.locked_by
            : undefined
        if (!expired && !dead) continue
      } else if (candidate.locked_until && candidate.locked_until > at) {
        continue
      }
      const job = await claim(candidate.id, dead)
      if (!job) continue
      if (candidate.status === JOB_STATUS.running) {
        jobLog(job).warn(
          { previous: candidate.locked_by },
          'ingest job taken over from a lost worker',
        )
      }
      taken += 1
      void run(job)
    }
  }

  async function cancelAbandoned(): Promise<void> {
    const before = iso(Date.now() - settings.abandonAfterMs)
    const abandoned = await db
      .selectFrom('ingest_jobs')
      .selectAll()
      .where('status', '=', JOB_STATUS.receiving)
      .where('updated_at', '<', before)
      .limit(20)
      .execute()
    for (const job of abandoned) {
      const cancel = async (executor: DB | Transaction<Database>) => {
        const at = iso(Date.now())
        const result = await executor
          .updateTable('ingest_jobs')
          .set({
            status: JOB_STATUS.cancelled,
            message: JOB_ABANDONED,
            updated_at: at,
            finished_at: at,
          })
          .where('id', '=', job.id)
          .where('status', '=', JOB_STATUS.receiving)
          .where('updated_at', '=', job.updated_at)
          .executeTakeFirst()
        return Number(result.numUpdatedRows) === 1
      }
      const ctx = { db, store, cipher, now: appNow, log: jobLog(job) }
      const options = table.get(job.kind) ?? {}
      if (!(await endWithHook(ctx, options, job, cancel, () => cancel(db)))) continue
      await store.deletePrefix(job.staging_prefix).catch(() => undefined)
    }
  }

  const sendOptions: PgBoss.SendOptions = {
    // Our lease decides retries and takeovers; pg-boss only delivers.
    retryLimit: 0,
    expireInHours: 12,
  }

  return {
    workerId,
    db,
    serves: (kind) => table.has(kind),
    events,
    async start() {
      if (started) return
      started = true
      kinds = [...table.keys()]
      if (options.postgres && kinds.length > 0) {
        const schema = `${options.postgres.schema ?? 'public'}_pgboss`
        const instance = new PgBoss({
          connectionString: options.postgres.url,
          schema,
          max: 3,
          application_name: 'yingxiang-jobs',
          schedule: false,
        })
        instance.on('error', (error) => log.error({ err: error }, 'pg-boss error'))
        const startupLock = options.startupLock ?? ((work) => work())
        await startupLock(async () => {
          await instance.start()
          for (const kind of kinds) {
            await instance.createQueue(queueName(kind)).catch((error: unknown) => {
              // A process without the lock (a test's runner) created it first: harmless.
              if (!/already exists|duplicate key/i.test(String(error))) throw error
            })
          }
        })
        for (const kind of kinds) {
          for (let i = 0; i < settings.concurrency; i++) {
            await instance.work<{ jobId: string }>(
              queueName(kind),
              { pollingIntervalSeconds: 0.5, batchSize: 1 },
              async ([delivered]) => {
                if (!delivered || stopping) return
                const job = await claim(delivered.data.jobId)
                if (job) await run(job)
              },
            )
          }
        }
        boss = instance
      }
      sweepTimer = setInterval(() => void sweepOnce(), settings.sweepMs)
      sweepTimer.unref()
      await sweepOnce()
    },
    async stop() {
      if (!started || stopping) return
      stopping = true
      if (sweepTimer) clearInterval(sweepTimer)
      await sweeping
      const grace = new Promise((resolve) => setTimeout(resolve, settings.stopGraceMs).unref())
      await Promise.race([Promise.all(active.values()), grace])
      // Still running after the grace: told to stop; their leases lapse if the process exits.
      stopController.abort()
      // Graceful: pg-boss lets its polling workers wind down before closing its pool. Closing it
      // under them (graceful: false) left a worker waiting forever, and the process never exited.
      // pg-boss's own promise sometimes never settles although its pool is closed (seen in the
      // PostgreSQL suite: no connection left, the test process idle forever), so it gets a bound.
      if (boss) {
        let bound: NodeJS.Timeout | undefined
        await Promise.race([
          boss
            .stop({ graceful: true, wait: true, timeout: 2000, close: true })
            .catch(() => undefined),
          new Promise((resolve) => {
            bound = setTimeout(resolve, 5000)
          }),
        ])
        clearTimeout(bound)
      }
      boss = undefined
    },
    async dispatch(job) {
      if (!started || stopping) return // the next start's sweep finds it
      // A timer not yet due: the sweep takes it when it is.
      if (job.run_after && job.run_after > appNow().toISOString()) return
      if (boss) {
        await boss
          .send(queueName(job.kind), { jobId: job.id }, sendOptions)
          .catch((error: unknown) =>
            jobLog(job).warn({ err: error }, 'pg-boss send failed; sweep will take it'),
          )
      } else {
        await sweepOnce()
      }
    },
    sweep: sweepOnce,
  }
}

/** Object-store prefix of a batch's files (deleted whole when the batch gives up). */
export const batchPrefix = (batchId: string) => `objects/${batchId}/`

export const attemptBatchId = (jobId: string, attempt: number) => `${jobId}-a${attempt}`

/** `host|pid|…` of a process on this host that no longer exists. */
function isDeadLocalWorker(lockedBy: string): boolean {
  const [host, pidText] = lockedBy.split('|')
  const pid = Number(pidText)
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    // EPERM: it exists but is someone else's; only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/**
 * `db` whose transactions first run `fence` inside them (TransactionBuilder's options such as
 * setIsolationLevel keep it). Everything else is the handle itself.
 */
function fencedDb(db: DB, fence: (trx: Transaction<Database>) => Promise<void>): DB {
  const wrap = (builder: TransactionBuilder<Database>): TransactionBuilder<Database> =>
    new Proxy(builder, {
      get(target, property) {
        if (property === 'execute') {
          return <T>(work: (trx: Transaction<Database>) => Promise<T>) =>
            target.execute(async (trx) => {
              await fence(trx)
              return work(trx)
            })
        }
        const value: unknown = Reflect.get(target, property, target)
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args)
          return result instanceof TransactionBuilder ? wrap(result) : result
        }
      },
    })
  return new Proxy(db, {
    get(target, property) {
      if (property === 'transaction') return () => wrap(target.transaction())
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value
    },
  })
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
