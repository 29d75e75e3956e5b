import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { DEFAULT_MIGRATION_TABLE, Kysely, Migrator, PostgresAdapter, sql } from 'kysely'
import pg from 'pg'
import type { DatabaseConfig } from '../config'
import { OwnSchemaPostgresDialect } from './postgres-dialect'
import { migrationProvider, migrations } from './migrations'
import type { Database, DB } from './schema'
import { DatabaseBusyError, WaitingSqliteDialect } from './sqlite-driver'
import { prepareStatements } from './pg-statements'
import { cacheStatements } from './statement-cache'

export type { Database, DB } from './schema'
export { DatabaseBusyError } from './sqlite-driver'

/** Whether this database is PostgreSQL (else SQLite): for the few SQL words the two spell differently. */
export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/** How long a starting process waits for another one's migrations (SQLite's write lock). */
const MIGRATION_LOCK_WAIT_MS = 120_000

export interface DatabaseHandle {
  db: DB
  kind: DatabaseConfig['kind']
  /**
   * Applies pending migrations; returns the names it applied (empty when up to date). Safe while
   * other processes start on the same database: PostgreSQL under an advisory lock, SQLite in one
   * BEGIN IMMEDIATE transaction (the other processes wait, then find nothing to do).
   */
  migrate(): Promise<string[]>
  /**
   * Runs `work` while no other process of this database runs its own: on PostgreSQL a session
   * advisory lock (per schema) on a connection of its own, released after, or when the process
   * dies; on SQLite it simply runs. For start-up work that is not safe to race (pg-boss creating its
   * schema and queues deadlocked, 40P01). Not reentrant: `work` must not take it again.
   */
  withStartupLock<T>(work: () => Promise<T>): Promise<T>
  /** Answers whether the database responds; used by /health. */
  ping(): Promise<boolean>
  destroy(): Promise<void>
}

/** Opens the database the configuration names: SQLite (embedded, default) or PostgreSQL. */
export function createDatabase(config: DatabaseConfig): DatabaseHandle {
  const db = config.kind === 'postgres' ? openPostgres(config) : openSqlite(config.file)
  const schema = config.kind === 'postgres' ? config.schema : undefined
  const withStartupLock =
    config.kind === 'postgres'
      ? <T>(work: () => Promise<T>) => withAdvisoryLock(config, 'startup', work)
      : <T>(work: () => Promise<T>) => work()

  return {
    db,
    kind: config.kind,
    async migrate() {
      // The usual start: nothing to do, so no waiting in line behind the other processes.
      if (await isUpToDate(db, schema)) return []
      if (config.kind === 'sqlite') return migrateSqlite(db)
      // A lock of its own: a process starting its job runner does not queue behind the other
      // processes' migrations.
      return withAdvisoryLock(config, 'migrate', async () => {
        if (schema) await db.schema.createSchema(schema).ifNotExists().execute()
        return migrateToLatest(db, schema)
      })
    },
    withStartupLock,
    async ping() {
      try {
        await sql`select 1`.execute(db)
        return true
      } catch {
        return false
      }
    },
    destroy: () => db.destroy(),
  }
}

/**
 * Whether exactly the known migrations are recorded (Kysely's table). Anything else (a fresh
 * database, one migrated by newer code) goes to the migrator under the lock, which applies or
 * complains.
 */
async function isUpToDate(db: DB, schema: string | undefined): Promise<boolean> {
  const table = sql.table(schema ? `${schema}.${DEFAULT_MIGRATION_TABLE}` : DEFAULT_MIGRATION_TABLE)
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db)
    const recorded = rows.map((row) => row.name).sort()
    return recorded.join('\n') === Object.keys(migrations).sort().join('\n')
  } catch {
    return false // no table yet
  }
}

async function migrateToLatest(db: DB, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    // Kysely looks for its bookkeeping tables across all schemas unless told which one is ours.
    ...(schema ? { migrationTableSchema: schema } : {}),
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/**
 * Kysely runs SQLite migrations statement by statement, outside any transaction: two processes
 * starting on a fresh file created the same tables side by side ("table already exists"). Here all
 * of them run in one BEGIN IMMEDIATE transaction; a process that finds the write lock taken waits
 * (asynchronously) and then finds the migrations applied.
 */
async function migrateSqlite(db: DB): Promise<string[]> {
  const deadline = Date.now() + MIGRATION_LOCK_WAIT_MS
  for (;;) {
    try {
      return await db.connection().execute(async (connection) => {
        await sql`begin immediate`.execute(connection)
        try {
          const applied = await migrateToLatest(connection)
          await sql`commit`.execute(connection)
          return applied
        } catch (error) {
          await sql`rollback`.execute(connection)
          throw error
        }
      })
    } catch (error) {
      // Only `begin immediate` can meet the lock (the transaction holds it after), so nothing ran.
      if (!(error instanceof DatabaseBusyError) || Date.now() > deadline) throw error
    }
  }
}

/** An advisory lock's key: one per schema, so processes of other schemas never wait on it. */
function advisoryLockKey(name: string, schema: string | undefined): string {
  const digest = createHash('sha256')
    .update(`yingxiang:${name}:${schema ?? 'public'}`)
    .digest()
  return digest.readBigInt64BE(0).toString()
}

async function withAdvisoryLock<T>(
  config: Extract<DatabaseConfig, { kind: 'postgres' }>,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  // A session lock on a connection of its own: the pool's connections come and go under `work`.
  const client = new pg.Client({ connectionString: config.url })
  await client.connect()
  try {
    const key = advisoryLockKey(name, config.schema)
    await client.query('select pg_advisory_lock($1::bigint)', [key])
    try {
      return await work()
    } finally {
      await client.query('select pg_advisory_unlock($1::bigint)', [key])
    }
  } finally {
    await client.end()
  }
}

/**
 * Turns a file to WAL. Several processes opening one fresh file at once all try the switch, which
 * needs the file to themselves: on a loaded machine the busy timeout (5 s) ran out for seven of eight
 * (start-race.test.ts, one round in twenty, raw SQLITE_BUSY). The switch is tried again, after a
 * short random pause so the processes stop colliding, for up to 30 s. Start-up only, before any
 * request, so waiting synchronously here blocks nothing.
 */
function switchToWal(database: BetterSqlite3.Database): void {
  const deadline = Date.now() + 30_000
  for (;;) {
    try {
      database.pragma('journal_mode = WAL')
      return
    } catch (error) {
      const code = (error as { code?: unknown }).code
      const busy = typeof code === 'string' && code.startsWith('SQLITE_BUSY')
      if (!busy || Date.now() > deadline) throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20 + Math.random() * 80)
    }
  }
}

function openSqlite(file: string): DB {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true })
  const database = new BetterSqlite3(file)
  // Opening may wait for a process that is creating the same file (start-up, before any request).
  database.pragma('busy_timeout = 5000')
  // WAL lets readers run while one writer writes; foreign keys are off by default in SQLite.
  if (file !== ':memory:') switchToWal(database)
  database.pragma('foreign_keys = ON')
  // From here on a lock is waited for asynchronously, never inside SQLite (sqlite-driver.ts).
  database.pragma('busy_timeout = 0')
  cacheStatements(database)
  return new Kysely<Database>({ dialect: new WaitingSqliteDialect(database) })
}

/** PostgreSQL's int8 (OID 20): bigint columns, count(*). */
const INT8_OID = 20

/**
 * int8 as a JavaScript number, as SQLite answers it, so callers never see a string: byte counts
 * and counts stay far below 2^53 (8 PB). A value beyond it stays the exact string node-postgres
 * gives by default rather than a silently rounded number.
 */
export function parseInt8(text: string): number | string {
  const value = Number(text)
  return Number.isSafeInteger(value) ? value : text
}

/** This pool's parsers only: pg's global table (pg-boss, other clients) is left as it is. */
function postgresTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides()
  types.setTypeParser(INT8_OID, 'text', parseInt8)
  return types
}

function openPostgres(config: Extract<DatabaseConfig, { kind: 'postgres' }>): DB {
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    // A connection closed when idle is paid for when load comes back: a new backend, its catalogue
    // caches and its prepared statements. With pg's default (10 s) the consultation bench's lists
    // stalled 100–240 ms each time a burst's connections timed out; 5 minutes rides out the dips
    // of normal traffic. Idle connections do not keep a script's process alive.
    idleTimeoutMillis: 300_000,
    allowExitOnIdle: true,
    types: postgresTypes(),
    // search_path makes every unqualified table name resolve inside our schema.
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
  })
  pool.on('connect', (client) => prepareStatements(client))
  return new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) })
}
