import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import type { DB } from '../../src/db'
import { identityDigests } from '../../src/domain/records/access'
import { TEST_DB_KIND } from '../helpers'
import { addHospital, buildPatientApp, insertExam } from './patient-support'

/*
 * The lists' change counters (migrations 0011, 0012) are rows every write to a person's records
 * bumps at commit. Two transactions that change the same people's records in opposite orders must
 * not deadlock on them. The interleaving is forced: a third transaction holds one counter while the
 * first commits, so the first waits holding another, and the second commits in between.
 */

/** A transaction that runs `work`, then waits for `commit()` before committing. */
function heldTransaction(db: DB, work: (trx: DB) => Promise<void>) {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  let pid!: number
  let ready!: () => void
  const started = new Promise<void>((resolve) => (ready = resolve))
  const done = db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)
    pid = rows[0]!.pid
    await work(trx as unknown as DB)
    ready()
    await gate
  })
  done.catch(() => ready())
  return { started, commit: release, done, pid: () => pid }
}

async function waitingOnLocks(db: DB, pids: number[]): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`select count(*) as n from pg_stat_activity
    where wait_event_type = 'Lock' and pid in (${sql.join(pids)})`.execute(db)
  return Number(rows[0]!.n)
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !(await condition()); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

test(
  'writes to two people’s records in opposite orders commit without a deadlock (PostgreSQL)',
  { skip: TEST_DB_KIND !== 'postgres' && 'SQLite has one writer at a time' },
  async () => {
    const ctx = await buildPatientApp()
    const { db } = ctx.app
    const cipher = ctx.app.personalCipher
    await addHospital(db, { id: 'dl', name: '并发医院' })
    const people = [
      { idNumber: '110101198001010011', name: '甲并发' },
      { idNumber: '110101198001010027', name: '乙并发' },
      { idNumber: '110101198001010035', name: '丙并发' },
    ]
    const [x1, y, z1, z2, x2] = [
      await insertExam(db, cipher, { hospitalId: 'dl', patient: people[0] }),
      await insertExam(db, cipher, { hospitalId: 'dl', patient: people[1] }),
      await insertExam(db, cipher, { hospitalId: 'dl', patient: people[2] }),
      await insertExam(db, cipher, { hospitalId: 'dl', patient: people[2] }),
      await insertExam(db, cipher, { hospitalId: 'dl', patient: people[0] }),
    ]
    const touch = (trx: DB, examId: string) =>
      trx.updateTable('exams').set({ status_message: '更新' }).where('id', '=', examId).execute()
    const middle = `p:${identityDigests(cipher, people[1]!.idNumber, people[1]!.name).patientKey}`

    // Holds the middle person's counter.
    const blocker = heldTransaction(db, async (trx) => {
      await sql`select 1 from record_generations where subject = ${middle} for update`.execute(trx)
    })
    // Changes X, then Y (held), then Z.
    const first = heldTransaction(db, async (trx) => {
      await touch(trx, x1.id)
      await touch(trx, y.id)
      await touch(trx, z1.id)
    })
    // Changes Z, then X.
    const second = heldTransaction(db, async (trx) => {
      await touch(trx, z2.id)
      await touch(trx, x2.id)
    })
    await Promise.all([blocker.started, first.started, second.started])

    first.commit()
    await until(async () => (await waitingOnLocks(db, [first.pid()])) === 1)
    second.commit()
    let secondSettled = false
    void second.done.finally(() => (secondSettled = true)).catch(() => undefined)
    await until(async () => secondSettled || (await waitingOnLocks(db, [second.pid()])) === 1)
    blocker.commit()
    const outcomes = await Promise.allSettled([blocker.done, first.done, second.done])
    for (const outcome of outcomes) {
      assert.equal(
        outcome.status,
        'fulfilled',
        outcome.status === 'rejected' ? String(outcome.reason) : '',
      )
    }
  },
)
