import type pg from 'pg'

/** Distinct SQL texts kept prepared per connection; the app has a few hundred, odd ones age out. */
export const PG_STATEMENT_CACHE_SIZE = 500

/** Only plain single statements are prepared: no utility commands, no `a; b` scripts. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i

/** The bits of pg's connection this relies on (pg 8: `client.connection`). */
interface ParsedStatements {
  parsedStatements?: Record<string, string>
}

/**
 * Makes a pool client send each query as a named prepared statement, per SQL text, the way
 * `statement-cache.ts` does for SQLite. Kysely's PostgreSQL driver sends every query unnamed, so
 * PostgreSQL parses and plans it afresh each time: on the consultation lists that was about 1 ms of
 * planning per request against 1.3 ms of running the query (EXPLAIN ANALYZE on the bench's data).
 * Named, a statement is parsed once per connection, and after five runs PostgreSQL may keep a
 * generic plan when it costs no more than the custom ones.
 *
 * Each connection keeps at most `size` statements (least recently used out, DEALLOCATEd). A
 * statement gets a new name each time its text enters the cache, so a name is never reused for
 * another text even when a DEALLOCATE failed (the server then frees it when the connection ends).
 * When a migration (another process's, during a rolling start) changes a table under a prepared
 * `select *`, PostgreSQL answers 0A000 ("cached plan must not change result type"): the connection
 * then forgets all its statements and, outside a transaction, sends the query again under a fresh
 * name; inside one (already aborted by the error) the error goes to the caller like any other.
 */
export function prepareStatements(client: pg.PoolClient, size = PG_STATEMENT_CACHE_SIZE): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>
  const connection = (client as unknown as { connection?: ParsedStatements }).connection
  const names = new Map<string, string>()
  let next = 0
  // Kysely opens and ends transactions with these words on the same client.
  let inTransaction = false
  const forget = (name: string) => {
    if (connection?.parsedStatements) delete connection.parsedStatements[name]
  }
  const name = (text: string) => {
    const known = names.get(text)
    if (known) {
      // Re-inserted so the Map's order is least recently used first.
      names.delete(text)
      names.set(text, known)
      return known
    }
    const fresh = `s${(next += 1)}`
    names.set(text, fresh)
    if (names.size > size) {
      const [oldText, oldName] = names.entries().next().value!
      names.delete(oldText)
      forget(oldName)
      query(`deallocate ${oldName}`).catch(() => {})
    }
    return fresh
  }
  client.query = ((...args: unknown[]) => {
    const [text, values, callback] = args
    if (typeof text === 'string') {
      const word = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase()
      if (word === 'begin' || word === 'start') inTransaction = true
      else if (word === 'commit' || word === 'rollback' || word === 'end') inTransaction = false
    }
    if (
      typeof text !== 'string' ||
      !Array.isArray(values) ||
      callback !== undefined ||
      text.includes(';') ||
      !PREPARABLE.test(text)
    ) {
      return query(...args)
    }
    const wasInTransaction = inTransaction
    return query({ name: name(text), text, values }).catch((error: unknown) => {
      if ((error as { code?: string }).code !== '0A000') throw error
      for (const old of names.values()) forget(old)
      names.clear()
      if (wasInTransaction) throw error
      return query({ name: name(text), text, values })
    })
  }) as pg.PoolClient['query']
}
