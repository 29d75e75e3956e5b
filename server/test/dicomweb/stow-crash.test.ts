import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import pg from 'pg'
import type { DatabaseConfig } from '../../src/config'
import { createDatabase } from '../../src/db'
import { testInstance } from '../dicom/writer'
import { closeAfter, isolatedDatabase, TEST_PG_URL } from '../helpers'
import { multipartBody, sequence, startServerProcess, type Json } from './stow-support'

/*
 * A real server process (server/src/server.ts, spawned as bench/server.ts does) is killed with
 * SIGKILL while it stores a pushed study, then started again on the same database and object store:
 * no half-stored exam is ever visible, the job is taken again by the new process at once (the dead
 * worker's pid is gone), the earlier attempt's objects are removed, and the study ends stored once.
 * SQLite file and PostgreSQL (--pg) alike.
 */

const DEMO_KEY = 'demo-hospital-key'
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'yx-stow-crash-'))
after(() => rmSync(dataDir, { recursive: true, force: true }))

// A fresh schema on the test PostgreSQL, or an SQLite file both processes open in turn.
const database: DatabaseConfig = TEST_PG_URL
  ? isolatedDatabase()
  : { kind: 'sqlite', file: path.join(dataDir, 'app.sqlite') }
const uploadDir = path.join(dataDir, 'uploads')
const objectsDir = path.join(uploadDir, '.objects')

if (database.kind === 'postgres') {
  closeAfter(async () => {
    const client = new pg.Client({ connectionString: TEST_PG_URL })
    await client.connect()
    await client.query(`drop schema if exists "${database.schema}_pgboss" cascade`)
    await client.end()
  })
}

const startServer = () => startServerProcess(database, dataDir)

const INSTANCES = 120
const STUDY = `1.2.826.0.1.3680043.10.77.${Date.now()}`

/** A study of INSTANCES 256×256 16-bit slices: long enough to store that a kill lands mid-way. */
function study(): Buffer[] {
  const pixels = Buffer.alloc(256 * 256 * 2)
  for (let i = 0; i < pixels.length; i += 2) pixels.writeUInt16LE((i * 7) & 0x0fff, i)
  return Array.from({ length: INSTANCES }, (_, i) =>
    testInstance([
      { tag: '0020000D', vr: 'UI', value: STUDY },
      { tag: '0020000E', vr: 'UI', value: `${STUDY}.1` },
      { tag: '00080018', vr: 'UI', value: `${STUDY}.1.${i + 1}` },
      { tag: '00200013', vr: 'IS', value: String(i + 1) },
      { tag: '00280010', vr: 'US', value: [256] },
      { tag: '00280011', vr: 'US', value: [256] },
      { tag: '00280100', vr: 'US', value: [16] },
      { tag: '00280101', vr: 'US', value: [12] },
      { tag: '00280102', vr: 'US', value: [11] },
      { tag: '7FE00010', vr: 'OW', value: new Uint8Array(pixels) },
    ]),
  )
}

const filesUnder = (dir: string): number =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
        (entry) => entry.isFile() && !entry.name.startsWith('.'),
      ).length
    : 0

test('kill -9 mid-ingest, restart: nothing half-stored, the job resumes and stores the study once', async () => {
  const first = await startServer()
  const db = createDatabase(database)
  closeAfter(() => db.destroy())

  const { body, contentType } = multipartBody(
    study().map((bytes) => ({ bytes, contentType: 'application/dicom' })),
  )
  const pushed = await fetch(`${first.url}/dicomweb/studies`, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      authorization: `Bearer ${DEMO_KEY}`,
      prefer: 'respond-async',
    },
    body,
  })
  assert.equal(pushed.status, 202)
  const location = pushed.headers.get('content-location')!
  const jobId = location.split('/').pop()!
  const attemptDir = path.join(objectsDir, 'objects', `${jobId}-a1`)

  // Wait until the first process is writing the study's objects, then kill it outright.
  const deadline = Date.now() + 60_000
  while (filesUnder(attemptDir) < 20) {
    assert.ok(Date.now() < deadline, 'the ingest never started')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  first.child.kill('SIGKILL')
  await new Promise((resolve) => first.child.once('exit', resolve))

  const written = filesUnder(attemptDir)
  // Mid-way: fewer objects than the whole study (file + pixels per instance) were written.
  assert.ok(written < INSTANCES * 2, `killed too late: ${written} objects`)
  const killed = await db.db
    .selectFrom('ingest_jobs')
    .selectAll()
    .where('id', '=', jobId)
    .executeTakeFirstOrThrow()
  assert.equal(killed.status, 'running')
  // No half-stored exam: the rows commit in one transaction at the end, which never came.
  const exams = await db.db
    .selectFrom('exams')
    .select('id')
    .where('study_uid', '=', STUDY)
    .execute()
  assert.deepEqual(exams, [])

  const second = await startServer()
  let answer = await fetch(`${second.url}${location}`, {
    headers: { authorization: `Bearer ${DEMO_KEY}` },
  })
  const resumeDeadline = Date.now() + 120_000
  while (answer.status === 202 && Date.now() < resumeDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    answer = await fetch(`${second.url}${location}`, {
      headers: { authorization: `Bearer ${DEMO_KEY}` },
    })
  }
  assert.equal(answer.status, 200)
  const json = (await answer.json()) as Json
  assert.equal(sequence(json, '00081199').length, INSTANCES)

  const job = await db.db
    .selectFrom('ingest_jobs')
    .selectAll()
    .where('id', '=', jobId)
    .executeTakeFirstOrThrow()
  assert.equal(job.status, 'done')
  assert.equal(job.attempts, 2)
  assert.equal(job.stored_count, INSTANCES)
  assert.notEqual(job.locked_by, killed.locked_by)

  const exam = await db.db
    .selectFrom('exams')
    .selectAll()
    .where('study_uid', '=', STUDY)
    .executeTakeFirstOrThrow()
  assert.equal(exam.instance_count, INSTANCES)
  const rows = await db.db
    .selectFrom('instances')
    .select(['file_key'])
    .where('exam_id', '=', exam.id)
    .execute()
  assert.equal(rows.length, INSTANCES)
  assert.ok(rows.every((row) => row.file_key.startsWith(`objects/${jobId}-a2/`)))
  // The dead attempt's objects and the staging copy are gone.
  assert.equal(filesUnder(attemptDir), 0)
  // Staging is removed just after the row says done.
  const staging = path.join(objectsDir, 'staging', 'stow', jobId)
  for (let i = 0; i < 100 && filesUnder(staging) > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  assert.equal(filesUnder(staging), 0)
})
