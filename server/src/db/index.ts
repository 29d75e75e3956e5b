import { mkdirSync } from 'node:fs'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect } from 'kysely'
import pg from 'pg'
import type { DatabaseConfig } from '../config'
import { migrationProvider } from './migrations'
import type { Database, DB } from './schema'
import { cacheStatements } from './statement-cache'

export type { Database, DB } from './schema'

export interface DatabaseHandle {
  db: DB
  kind: DatabaseConfig['kind']
  /** Applies pending migrations; returns the names it applied (empty when up to date). */
  migrate(): Promise<string[]>
  /** Answers whether the database responds; used by /health. */
  ping(): Promise<boolean>
  destroy(): Promise<void>
}

/** Opens the database the configuration names: SQLite (embedded, default) or PostgreSQL. */
export function createDatabase(config: DatabaseConfig): DatabaseHandle {
  const db = config.kind === 'postgres' ? openPostgres(config) : openSqlite(config.file)
  const schema = config.kind === 'postgres' ? config.schema : undefined

  return {
    db,
    kind: config.kind,
    async migrate() {
      if (schema) await db.schema.createSchema(schema).ifNotExists().execute()
      const migrator = new Migrator({
        db,
        provider: migrationProvider,
        // Kysely looks for its bookkeeping tables across all schemas unless told which one is ours.
        ...(schema ? { migrationTableSchema: schema } : {}),
      })
      const { error, results } = await migrator.migrateToLatest()
      if (error) throw error
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
    },
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

function openSqlite(file: string): DB {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true })
  const database = new BetterSqlite3(file)
  // WAL lets readers run while one writer writes; foreign keys are off by default in SQLite.
  if (file !== ':memory:') database.pragma('journal_mode = WAL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 5000')
  cacheStatements(database)
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) })
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
    types: postgresTypes(),
    // search_path makes every unqualified table name resolve inside our schema.
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
  })
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
}
