/**
 * One server process for start-race.test.ts. It loads the code once, then on each message does what
 * a starting server does to the shared database, with the app's own functions (domain/startup.ts,
 * which buildApp calls): prepareDatabase (migrations, seeds) and the job runner's start (pg-boss,
 * its schema and queues on PostgreSQL). It answers whether it got there, and closes. The rest of
 * buildApp (plugins, routes, API docs) touches no database and took most of a start's time: 20
 * rounds of 8 processes building all of it ran past the suite's 3 minutes per file under load.
 */
import os from 'node:os'
import path from 'node:path'
import Fastify from 'fastify'
import { loadConfig } from '../../src/config'
import { createFieldCipher } from '../../src/crypto/field-cipher'
import { createDatabase } from '../../src/db'
import { createAppJobRunner, prepareDatabase } from '../../src/domain/startup'
import { JOB_KINDS } from '../../src/job-kinds'
import { createObjectStore } from '../../src/storage'
// The modules that register the job kinds, whose pg-boss queues a start creates.
import '../../src/domain/ingest/stow'
import '../../src/routes/main/dicom-upload'

export interface StartRequest {
  /** DATABASE_URL: a SQLite file or postgres://… */
  url: string
  /** DATABASE_SCHEMA on PostgreSQL. */
  schema?: string
  uploadDir: string
}

export type StartAnswer = { ok: true } | { ok: false; error: string }

const log = Fastify({ logger: { level: 'silent' } }).log

async function startOnce(request: StartRequest): Promise<StartAnswer> {
  try {
    const config = loadConfig({
      DATABASE_URL: request.url,
      ...(request.schema ? { DATABASE_SCHEMA: request.schema } : {}),
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
      DEMO_MODE: 'on',
      LOG_LEVEL: 'silent',
      UPLOAD_DIR: request.uploadDir,
      WEB_ROOT: path.join(os.tmpdir(), 'yx-start-race-no-web'),
    })
    const database = createDatabase(config.database)
    try {
      const store = createObjectStore(config.storage, config.uploadDir)
      const now = () => new Date()
      const cipher = createFieldCipher(config.idCardKey)
      await prepareDatabase(config, database, store, now, cipher)
      const jobs = createAppJobRunner(config, database, {
        kinds: JOB_KINDS,
        store,
        cipher,
        log,
        now,
      })
      await jobs.start()
      await jobs.stop()
    } finally {
      await database.destroy()
    }
    return { ok: true }
  } catch (error) {
    const code = (error as { code?: unknown }).code
    return { ok: false, error: `${String(code ?? '')} ${String(error)}`.trim() }
  }
}

process.on('message', (request: StartRequest) => {
  void startOnce(request).then((answer) => process.send?.(answer))
})
process.send?.('loaded')
// The test file's process gone (killed at its timeout): the IPC channel closes, so no worker outlives
// it (they were found still running, holding connections, after a timed-out run).
process.on('disconnect', () => process.exit(0))
