import type { Database as SqliteDatabase } from 'better-sqlite3'
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
} from 'kysely'

/**
 * How long a statement waits for a write lock another process holds (a `sqlite3` shell, a backup,
 * `npm run hospital`) before the request answers 503. As long as SQLite's busy timeout used to be,
 * but the wait no longer blocks the event loop.
 */
export const SQLITE_BUSY_WAIT_MS = 5_000

/** Pauses between tries: short at first (most locks last milliseconds), then a steady poll. */
const FIRST_PAUSE_MS = 2
const LONGEST_PAUSE_MS = 50

/**
 * The database stayed locked by someone else past the wait, or a statement inside a transaction
 * met a lock (the transaction is rolled back as a whole). Nothing of the work was written; the
 * request answers 503 数据库繁忙，请稍后重试 (plugins/error-handler.ts).
 */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError'
  constructor(cause: unknown) {
    super('database is locked by another connection', { cause })
  }
}

/** SQLITE_BUSY and its extended codes (_SNAPSHOT, _RECOVERY, _TIMEOUT) from better-sqlite3. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY')
}

/**
 * Kysely's SQLite dialect with a driver that never waits synchronously for a lock. better-sqlite3
 * runs a statement on the event loop, so SQLite's busy timeout (5 s) froze every request, /health
 * included, while another process held the write lock. Here the busy timeout is 0 (db/index.ts) and
 * a statement that meets a lock is tried again after an asynchronous pause, the connection being
 * free for other statements meanwhile (in WAL mode reads never need the write lock), until
 * SQLITE_BUSY_WAIT_MS have passed; then DatabaseBusyError.
 *
 * Transactions begin IMMEDIATE: they take the write lock at their first statement, where waiting is
 * safe because nothing has run yet. A deferred transaction that read first and then wrote would get
 * SQLITE_BUSY at once (SQLite refuses to wait there, to avoid a deadlock) half way through its work.
 */
export class WaitingSqliteDialect extends SqliteDialect {
  readonly #database: SqliteDatabase
  readonly #waitMs: number

  constructor(database: SqliteDatabase, waitMs = SQLITE_BUSY_WAIT_MS) {
    super({ database })
    this.#database = database
    this.#waitMs = waitMs
  }

  override createDriver(): Driver {
    return new WaitingSqliteDriver(this.#database, this.#waitMs)
  }
}

/** One connection, as Kysely's own SQLite driver: a transaction holds it until it ends. */
class WaitingSqliteDriver implements Driver {
  readonly #mutex = new ConnectionMutex()
  readonly #connection: WaitingSqliteConnection
  readonly #database: SqliteDatabase

  constructor(database: SqliteDatabase, waitMs: number) {
    this.#database = database
    this.#connection = new WaitingSqliteConnection(database, this.#mutex, waitMs)
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock()
    return this.#connection
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock()
  }

  async destroy(): Promise<void> {
    this.#database.close()
  }
}

class WaitingSqliteConnection implements DatabaseConnection {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly mutex: ConnectionMutex,
    private readonly waitMs: number,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + this.waitMs
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      try {
        return this.run<R>(compiledQuery)
      } catch (error) {
        if (!isBusy(error)) throw error
        // Inside a transaction the earlier statements hold their effects and a lock of their own:
        // the caller rolls the whole transaction back. Outside one, the statement changed nothing
        // and is simply tried again.
        if (this.database.inTransaction || Date.now() + pause > deadline) {
          throw new DatabaseBusyError(error)
        }
        // The caller holds the connection; others may use it while this one waits (no transaction
        // is open on it), and it is held again before the next try.
        this.mutex.unlock()
        await new Promise((resolve) => setTimeout(resolve, pause))
        await this.mutex.lock()
      }
    }
  }

  private run<R>({ sql, parameters }: CompiledQuery): QueryResult<R> {
    const statement = this.database.prepare(sql)
    if (statement.reader) return { rows: statement.all(parameters) as R[] }
    const { changes, lastInsertRowid } = statement.run(parameters)
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] }
  }

  async *streamQuery<R>({
    sql,
    parameters,
    query,
  }: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query)) {
      throw new Error('Sqlite driver only supports streaming of select queries')
    }
    for (const row of this.database.prepare(sql).iterate(parameters)) {
      yield { rows: [row as R] }
    }
  }
}

/** Kysely's: whoever holds it owns the one connection. */
class ConnectionMutex {
  #promise: Promise<void> | undefined
  #resolve: (() => void) | undefined

  async lock(): Promise<void> {
    while (this.#promise) await this.#promise
    this.#promise = new Promise((resolve) => {
      this.#resolve = resolve
    })
  }

  unlock(): void {
    const resolve = this.#resolve
    this.#promise = undefined
    this.#resolve = undefined
    resolve?.()
  }
}
