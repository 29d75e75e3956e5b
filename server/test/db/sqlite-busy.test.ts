import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { buildApp } from '../../src/app'
import { createDatabase } from '../../src/db'
import { closeAfter, TEST_DB_KIND, testConfig } from '../helpers'
import { signUp } from '../domain/profile/support'

/**
 * Another process holding SQLite's write lock (a `sqlite3` shell, a backup, `npm run hospital`):
 * better-sqlite3 waits for a lock inside SQLite, on the event loop, so the whole server used to
 * freeze for the busy timeout (5 s) at every write, /health included, and writes answered 500. Now
 * reads go on (WAL), the event loop stays free, and a write waits asynchronously, then succeeds once
 * the lock is gone or answers 503 数据库繁忙，请稍后重试 without having written anything.
 *
 * Its read times and event-loop lag are bounds on the server, so no other file shares the cores:
 */
// test-server: runs alone

const skip = TEST_DB_KIND === 'sqlite' ? false : 'SQLite only: a PostgreSQL writer blocks no reader'
const ROOT = path.resolve(__dirname, '..', '..', '..')
const scratch = mkdtempSync(path.join(os.tmpdir(), 'yx-sqlite-busy-'))
after(() => rmSync(scratch, { recursive: true, force: true }))

/** Another process takes the write lock (BEGIN IMMEDIATE, one row written) and holds it `ms`. */
async function holdWriteLock(file: string, ms: number): Promise<{ released: Promise<void> }> {
  const script = `
    const db = new (require('better-sqlite3'))(${JSON.stringify(file)})
    db.exec('begin immediate')
    db.prepare("insert into seed_runs (name, ran_at) values ('outside-writer', 'x')").run()
    process.stdout.write('locked\\n')
    setTimeout(() => { db.exec('commit'); db.close(); process.stdout.write('released\\n') }, ${ms})`
  const child = spawn(process.execPath, ['-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  closeAfter(async () => {
    if (child.exitCode === null) child.kill()
  })
  let output = ''
  const seen = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => output.includes(word) && resolve()
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        check()
      })
      child.once('exit', (code) =>
        output.includes(word) ? resolve() : reject(new Error(`lock holder exited ${code}`)),
      )
      check()
    })
  await seen('locked')
  return { released: seen('released') }
}

/** The largest delay of a 10 ms timer while it runs: how long the event loop was blocked. */
function lagMonitor(): { stop(): number } {
  let worst = 0
  let last = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    worst = Math.max(worst, now - last - 10)
    last = now
  }, 10)
  return {
    stop() {
      clearInterval(timer)
      return worst
    },
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now()
  const value = await work()
  return { ms: performance.now() - started, value }
}

test(
  'a write lock held 10 s by another process: reads stay fast, writes wait, then succeed or answer 503',
  { skip },
  async (t) => {
    const file = path.join(scratch, 'server.sqlite')
    const app = await buildApp(testConfig({ database: { kind: 'sqlite', file } }))
    closeAfter(() => app.close())
    const patient = await signUp(app.db, new Date())
    await app.listen({ host: '127.0.0.1', port: 0 })
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const headers = {
      authorization: `Bearer ${patient.token}`,
      'content-type': 'application/json',
    }
    const sendFeedback = (text: string) =>
      fetch(`${base}/main/feedback`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'bug', text, imageIds: [] }),
      }).then(async (response) => ({ status: response.status, body: await response.json() }))
    const myFeedback = async () => {
      const response = await fetch(`${base}/main/feedback?page=1&pageSize=20`, { headers })
      assert.equal(response.status, 200)
      const body = (await response.json()) as { data: { items: { text: string }[] } }
      return body.data.items.map((item) => item.text)
    }
    // Warm: a route's first request compiles its validator and serializer.
    assert.equal((await sendFeedback('锁之前写入的反馈')).status, 200)
    await myFeedback()

    const lock = await holdWriteLock(file, 10_000)
    const lockStarted = performance.now()
    const lag = lagMonitor()
    // Given up on after SQLITE_BUSY_WAIT_MS (5 s), while the lock still stands.
    const refused = timed(() => sendFeedback('锁住时提交的反馈（应被拒绝）'))
    const readTimes: number[] = []
    while (performance.now() - lockStarted < 5_500) {
      await sleep(250)
      const health = await timed(() => fetch(`${base}/health`))
      assert.equal(health.value.status, 200)
      const read = await timed(myFeedback)
      readTimes.push(health.ms, read.ms)
    }
    const first = await refused
    // Sent 7.5 s in: its wait (5 s) outlasts the lock, so it is written once the lock goes.
    await sleep(Math.max(0, 7_500 - (performance.now() - lockStarted)))
    const second = await timed(() => sendFeedback('锁解除后写入的反馈'))
    await lock.released
    const worstLag = lag.stop()
    t.diagnostic(
      `slowest read ${Math.round(Math.max(...readTimes))} ms, event loop blocked at most ` +
        `${Math.round(worstLag)} ms, refused write ${Math.round(first.ms)} ms, ` +
        `waiting write ${Math.round(second.ms)} ms`,
    )

    assert.equal(first.value.status, 503)
    assert.deepEqual(first.value.body, {
      code: 503,
      message: '数据库繁忙，请稍后重试',
      data: null,
      error: null,
      reason: null,
    })
    assert.ok(first.ms > 4_000, `the refused write waited ${first.ms} ms`)
    assert.equal(second.value.status, 200, JSON.stringify(second.value.body))
    assert.ok(second.ms > 1_000, `the second write waited for the lock (${second.ms} ms)`)
    // Nothing of the refused write, the outside writer's row and the second write all there.
    assert.deepEqual((await myFeedback()).sort(), ['锁之前写入的反馈', '锁解除后写入的反馈'].sort())
    const outside = await app.db
      .selectFrom('seed_runs')
      .select('name')
      .where('name', '=', 'outside-writer')
      .execute()
    assert.equal(outside.length, 1)
    // Timings under a loaded shared machine: the bound is generous to its noise, far below 5 s.
    assert.ok(Math.max(...readTimes) < 200, `reads took ${readTimes.map(Math.round).join(', ')} ms`)
    assert.ok(worstLag < 200, `the event loop was blocked ${Math.round(worstLag)} ms`)
  },
)

test(
  'a transaction that reads, then writes, waits for an outside lock instead of failing half way',
  { skip },
  async () => {
    const file = path.join(scratch, 'transaction.sqlite')
    const handle = createDatabase({ kind: 'sqlite', file })
    closeAfter(() => handle.destroy())
    await handle.migrate()
    const lock = await holdWriteLock(file, 1_000)
    const lag = lagMonitor()
    // A deferred transaction's read, then its write, met SQLITE_BUSY at once: SQLite does not wait
    // for a lock a reader wants to upgrade (it could deadlock).
    await handle.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('seed_runs').select('name').execute()
      await trx
        .insertInto('seed_runs')
        .values({ name: `after-${before.length}`, ran_at: new Date().toISOString() })
        .execute()
    })
    const worstLag = lag.stop()
    await lock.released
    const names = (await handle.db.selectFrom('seed_runs').select('name').execute()).map(
      (row) => row.name,
    )
    // It began once the outside writer had committed, so its read saw that row.
    assert.ok(names.includes('outside-writer'))
    assert.ok(names.includes(`after-${names.length - 1}`), names.join(', '))
    assert.ok(worstLag < 200, `the event loop was blocked ${Math.round(worstLag)} ms`)
  },
)
