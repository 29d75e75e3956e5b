/**
 * Runs the server tests (server/test/**\/*.test.ts) with node's test runner.
 *
 *   npx tsx scripts/test-server.ts          on SQLite (each test file gets in-memory databases)
 *   npx tsx scripts/test-server.ts --pg     on a throwaway PostgreSQL cluster (each file gets schemas)
 *   npx tsx scripts/test-server.ts --pg server/test/records   only the files under a path
 */
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { PgMissingError, startPgCluster, type PgCluster } from './pg-cluster'

const ROOT = path.resolve(__dirname, '..')
const TEST_DIR = path.join(ROOT, 'server', 'test')

/** Node 20's --test does not expand globs, so the files are listed here. */
function testFiles(): string[] {
  return readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join('server', 'test', file))
    .sort()
}

/**
 * --test-force-exit: a file whose tests are over exits even if a library left a handle open. pg-boss
 * sometimes keeps one after stop() (its pool closed, a timer still armed); without the flag that file's
 * process idled forever and CI ran out of its 90 minutes with every test passed.
 * --test-timeout: a test that hangs fails with its name after 3 minutes instead of holding the run.
 */
const NODE_TEST_FLAGS = ['--test', '--test-force-exit', '--test-timeout=180000']

/**
 * On SQLite, test files run two to four at a time (each in its own process). Node 20's default is one fewer
 * than the cores, so a 2-core machine ran one file at a time and left a core idle while a file
 * imported the server, built its apps or waited on PostgreSQL. Files are isolated (their own
 * in-memory SQLite or PostgreSQL schemas, upload folders and free ports; helpers.ts), so their order
 * and company do not matter. TEST_CONCURRENCY overrides it (1 to see one file's output undisturbed).
 */
function testConcurrency(usePg: boolean, env: NodeJS.ProcessEnv = process.env): number {
  const asked = Number(env.TEST_CONCURRENCY)
  if (Number.isInteger(asked) && asked >= 1) return asked
  // On PostgreSQL, one file at a time: Kysely's migrator asks its introspector whether its tables
  // exist, and that query calls has_schema_privilege() on every schema of the database, so a schema
  // another file drops at that moment fails it with 3F000 (seen in three files on a clean run). An
  // introspector that looks at our own schema only would lift this.
  if (usePg) return 1
  // At most 4: each file's apps hold PostgreSQL pools (up to 10 + 3 connections per app), and the
  // throwaway cluster allows 100 connections.
  return Math.min(4, Math.max(2, availableParallelism()))
}

function runTests(files: string[], env: NodeJS.ProcessEnv, usePg: boolean): Promise<number> {
  return new Promise((resolve) => {
    const concurrency = `--test-concurrency=${testConcurrency(usePg)}`
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', ...NODE_TEST_FLAGS, concurrency, ...files],
      {
        cwd: ROOT,
        env,
        stdio: 'inherit',
      },
    )
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

async function main(): Promise<number> {
  const usePg = process.argv.includes('--pg')
  // Optional path filters (`... --pg server/test/records`): only the files under them.
  const filters = process.argv.slice(2).filter((arg) => !arg.startsWith('--'))
  const files = testFiles().filter(
    (file) =>
      filters.length === 0 || filters.some((filter) => file.startsWith(path.normalize(filter))),
  )
  if (files.length === 0) {
    console.error('No server tests found under server/test/.')
    return 1
  }

  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' }
  // The tests choose their database from DATABASE_URL; a developer's own value must not leak in.
  delete env.DATABASE_URL
  delete env.DATABASE_SCHEMA

  if (!usePg) {
    console.log(`Server tests on SQLite: ${files.length} files`)
    return runTests(files, env, false)
  }

  let cluster: PgCluster
  try {
    cluster = await startPgCluster()
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    return error instanceof PgMissingError ? 2 : 1
  }
  // Stop and delete the cluster however the run ends, Ctrl-C included.
  const onSignal = () => {
    void cluster.stop().finally(() => process.exit(130))
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    console.log(`Server tests on PostgreSQL (${cluster.url}): ${files.length} files`)
    return await runTests(files, { ...env, DATABASE_URL: cluster.url }, true)
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await cluster.stop()
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
