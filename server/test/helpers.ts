import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { buildApp } from '../src/app'
import { type Config, type DatabaseConfig, loadConfig } from '../src/config'
import { createDatabase, type DatabaseHandle } from '../src/db'

/** PostgreSQL when the runner set DATABASE_URL=postgres://… (test-server.ts --pg), else SQLite. */
export const TEST_PG_URL = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')
  ? process.env.DATABASE_URL!
  : undefined

export const TEST_DB_KIND: DatabaseConfig['kind'] = TEST_PG_URL ? 'postgres' : 'sqlite'

/**
 * A database nobody else uses: a fresh in-memory SQLite, or a fresh schema on the test PostgreSQL
 * (dropped after the test file, once everything using it is closed). Test files run in parallel, so
 * they must never share one.
 */
export function isolatedDatabase(): DatabaseConfig {
  if (!TEST_PG_URL) return { kind: 'sqlite', file: ':memory:' }
  const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`
  schemasToDrop.push(schema)
  return { kind: 'postgres', url: TEST_PG_URL, schema }
}

const schemasToDrop: string[] = []
const closers: (() => Promise<void>)[] = []

// One hook, so the order is certain: close apps and pools first, then drop their schemas.
after(async () => {
  for (const close of closers.splice(0).reverse()) await close()
  if (schemasToDrop.length === 0) return
  const client = new pg.Client({ connectionString: TEST_PG_URL })
  await client.connect()
  try {
    for (const schema of schemasToDrop.splice(0)) {
      await client.query(`drop schema if exists "${schema}" cascade`)
      // The ingest queue's pg-boss keeps its tables beside the app's schema (jobs.ts).
      await client.query(`drop schema if exists "${schema}_pgboss" cascade`)
    }
  } finally {
    await client.end()
  }
})

/** Runs `close` after the test file, before the isolated schemas are dropped. */
export function closeAfter(close: () => Promise<unknown>): void {
  closers.push(async () => {
    await close()
  })
}

/*
 * Uploads go to a folder of this test file's own, never the repository's data/uploads (the config's
 * default): test files run concurrently, and two runs (SQLite and PostgreSQL) may share a checkout.
 * Created on first use; removed after the file, once its apps are closed.
 */
let uploadRoot: string | undefined
function testUploadDir(): string {
  if (!uploadRoot) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-test-uploads-'))
    uploadRoot = dir
    closers.unshift(async () => rmSync(dir, { recursive: true, force: true }))
  }
  return uploadRoot
}

/**
 * Configuration for a test: silent logs, an isolated database, no built H5 app unless given one, and
 * passwords hashed at the test cost (config.testPasswordHash; about 0.2 ms a hash instead of 20). A
 * test whose point is the production cost, or a race whose window is the hash's time, passes
 * `testPasswordHash: false`; secrets.test.ts proves that the production cost is the default.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: ':memory:' }),
    testPasswordHash: true,
    database: isolatedDatabase(),
    uploadDir: overrides.uploadDir ?? testUploadDir(),
    webRoot: path.join(os.tmpdir(), `yingxiang-no-web-root-${randomBytes(4).toString('hex')}`),
    ...overrides,
  }
}

/** Builds the app on a fresh database and closes it after the test file. */
export async function buildTestApp(overrides: Partial<Config> = {}): Promise<FastifyInstance> {
  const app = await buildApp(testConfig(overrides))
  closeAfter(() => app.close())
  return app
}

/** An unmigrated database handle for domain tests; closed after the test file. */
export function openTestDatabase(database: DatabaseConfig = isolatedDatabase()): DatabaseHandle {
  const handle = createDatabase(database)
  closeAfter(() => handle.destroy())
  return handle
}
