import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import pg from 'pg'
import { createDatabase } from '../../src/db'
import { testInstance } from '../dicom/writer'
import { closeAfter, isolatedDatabase, TEST_PG_URL } from '../helpers'
import { type Json, multipartBody, sequence, startServerProcess } from './stow-support'

/*
 * Two real server processes on one PostgreSQL schema and one object store: studies pushed to one of
 * them are stored by both (pg-boss hands each job to whichever process polls first), each job once.
 * PostgreSQL only: runs in `npx tsx scripts/test-server.ts --pg` (SQLite is one process).
 */

const skip = TEST_PG_URL ? false : 'PostgreSQL only: runs in `npx tsx scripts/test-server.ts --pg`'
const DEMO_KEY = 'demo-hospital-key'
const STUDIES = 8
const PER_STUDY = 25

test(
  'two processes share the STOW jobs pushed to one of them, each job once',
  { skip },
  async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'yx-stow-two-'))
    // Through closeAfter, not after(): an after() inside a test runs when the test ends, while both
    // server processes still write into the store; closers run in reverse, so this one runs last.
    closeAfter(async () => rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 }))
    const database = isolatedDatabase()
    assert.equal(database.kind, 'postgres')
    closeAfter(async () => {
      const client = new pg.Client({ connectionString: TEST_PG_URL })
      await client.connect()
      await client.query(`drop schema if exists "${database.schema}_pgboss" cascade`)
      await client.end()
    })
    // One after the other: the first migrates and seeds the fresh schema, the second finds it ready.
    const a = await startServerProcess(database, dataDir)
    const b = await startServerProcess(database, dataDir)
    const db = createDatabase(database)
    closeAfter(() => db.destroy())

    const base = `1.2.826.0.1.3680043.10.78.${Date.now()}`
    const pixels = new Uint8Array(256 * 256)
    // All pushed at once: the receiving process runs two jobs at a time and wakes its own workers on
    // a push, so studies sent one by one, each done before the next arrived, could all be taken by
    // it while the other process polled an empty queue. A queue deeper than one process's two
    // workers is what several processes are for.
    const push = async (s: number): Promise<string> => {
      const study = `${base}.${s + 1}`
      const { body, contentType } = multipartBody(
        Array.from({ length: PER_STUDY }, (_, i) => ({
          contentType: 'application/dicom',
          bytes: testInstance([
            { tag: '0020000D', vr: 'UI', value: study },
            { tag: '0020000E', vr: 'UI', value: `${study}.1` },
            { tag: '00080018', vr: 'UI', value: `${study}.1.${i + 1}` },
            { tag: '00280010', vr: 'US', value: [256] },
            { tag: '00280011', vr: 'US', value: [256] },
            { tag: '7FE00010', vr: 'OB', value: pixels },
          ]),
        })),
      )
      const res = await fetch(`${a.url}/dicomweb/studies`, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          authorization: `Bearer ${DEMO_KEY}`,
          prefer: 'respond-async',
        },
        body,
      })
      assert.equal(res.status, 202)
      return res.headers.get('content-location')!
    }
    const locations = await Promise.all(Array.from({ length: STUDIES }, (_, s) => push(s)))

    // Either process answers for any job: the outcome lives in the shared database.
    for (const [i, location] of locations.entries()) {
      const server = i % 2 ? a : b
      let res = await fetch(`${server.url}${location}`, {
        headers: { authorization: `Bearer ${DEMO_KEY}` },
      })
      const deadline = Date.now() + 120_000
      while (res.status === 202 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200))
        res = await fetch(`${server.url}${location}`, {
          headers: { authorization: `Bearer ${DEMO_KEY}` },
        })
      }
      assert.equal(res.status, 200)
      assert.equal(sequence((await res.json()) as Json, '00081199').length, PER_STUDY)
    }

    const jobs = await db.db
      .selectFrom('ingest_jobs')
      .select(['locked_by', 'attempts', 'stored_count', 'status'])
      .where(
        'id',
        'in',
        locations.map((location) => location.split('/').pop()!),
      )
      .execute()
    assert.equal(jobs.length, STUDIES)
    assert.ok(jobs.every((job) => job.status === 'done' && job.attempts === 1))
    assert.ok(jobs.every((job) => job.stored_count === PER_STUDY))
    const pids = new Set(jobs.map((job) => job.locked_by!.split('|')[1]))
    assert.deepEqual(
      [...pids].sort(),
      [String(a.child.pid), String(b.child.pid)].sort(),
      'both processes stored studies',
    )
    const exams = await db.db
      .selectFrom('exams')
      .select('instance_count')
      .where('study_uid', 'like', `${base}.%`)
      .execute()
    assert.equal(exams.length, STUDIES)
    assert.ok(exams.every((exam) => exam.instance_count === PER_STUDY))
  },
)
