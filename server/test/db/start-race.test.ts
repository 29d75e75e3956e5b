import assert from 'node:assert/strict'
import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import pg from 'pg'
import { createDatabase } from '../../src/db'
import { DEMO_ACCOUNTS } from '../../src/domain/identity/demo'
import { isolatedDatabase, TEST_PG_URL } from '../helpers'
import type { StartAnswer, StartRequest } from './start-race-worker'

/**
 * Several server processes started at once on one fresh database all come up, and seed the demo
 * once. On PostgreSQL two of them used to fail in about half the trials: a deadlock (40P01) while
 * pg-boss created its queues, or a unique violation on `create schema if not exists`; on SQLite two
 * processes ran the same migrations side by side ("table already exists"). Each round is a fresh
 * schema (PostgreSQL) or a fresh file (SQLite) and 8 processes told to start at the same moment
 * (start-race-worker.ts: the start-up's database work, with the app's own functions).
 */

const PROCESSES = 8
// The races this guards against failed about half the trials before the fix: 8 rounds miss one
// with odds of 1 in 256, at 40% of 20 rounds' time (a round is ~7 s on PostgreSQL on 2 cores).
const ROUNDS = 8
const WORKER = path.join(__dirname, 'start-race-worker.ts')

const workers: ChildProcess[] = []
const scratch = mkdtempSync(path.join(os.tmpdir(), 'yx-start-race-'))

before(async () => {
  for (let i = 0; i < PROCESSES; i++) {
    const child = fork(WORKER, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    })
    workers.push(child)
  }
  await Promise.all(
    workers.map(
      (child) =>
        new Promise<void>((resolve, reject) => {
          child.once('message', () => resolve())
          child.once('exit', (code) => reject(new Error(`worker exited (${code}) while loading`)))
        }),
    ),
  )
})

after(() => {
  for (const child of workers) child.kill()
  rmSync(scratch, { recursive: true, force: true })
})

async function dropSchemas(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_PG_URL })
  await client.connect()
  try {
    await client.query(`drop schema if exists "${schema}" cascade`)
    await client.query(`drop schema if exists "${schema}_pgboss" cascade`)
  } finally {
    await client.end()
  }
}

function start(child: ChildProcess, request: StartRequest): Promise<StartAnswer> {
  return new Promise((resolve) => {
    child.once('message', (answer: StartAnswer) => resolve(answer))
    child.send(request)
  })
}

/** A fresh database for one round: a new schema on the test PostgreSQL, or a new SQLite file. */
function freshDatabase(round: number): { request: StartRequest; url: string; schema?: string } {
  const uploadDir = path.join(scratch, `uploads-${round}`)
  if (TEST_PG_URL) {
    const database = isolatedDatabase()
    const schema = database.kind === 'postgres' ? database.schema! : ''
    return { request: { url: TEST_PG_URL, schema, uploadDir }, url: TEST_PG_URL, schema }
  }
  const file = path.join(scratch, `round-${round}.sqlite`)
  return { request: { url: file, uploadDir }, url: file }
}

// One test per round, so each has the suite's per-test time limit (a loaded machine takes seconds
// per round: eight processes building the whole app at once).
for (let round = 0; round < ROUNDS; round++) {
  test(`round ${round + 1} of ${ROUNDS}: ${PROCESSES} servers started at once on a fresh database all come up`, async () => {
    const { request, url, schema } = freshDatabase(round)
    const answers = await Promise.all(workers.map((child) => start(child, request)))
    const failures = answers.flatMap((answer, i) =>
      answer.ok ? [] : [`process ${i}: ${answer.error}`],
    )
    // The demo was seeded once, whoever won: one account per demo number.
    const handle = createDatabase(
      TEST_PG_URL ? { kind: 'postgres', url, schema } : { kind: 'sqlite', file: url },
    )
    try {
      const accounts = await handle.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(
          'mobile',
          'in',
          DEMO_ACCOUNTS.map((account) => account.mobile),
        )
        .executeTakeFirstOrThrow()
      assert.deepEqual(failures, [])
      assert.equal(Number(accounts.n), DEMO_ACCOUNTS.length)
    } finally {
      await handle.destroy()
      // Dropped at once: forty rounds' schemas in the catalog slow every later round's look-ups.
      if (schema) await dropSchemas(schema)
    }
  })
}
