import assert from 'node:assert/strict'
import { test } from 'node:test'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, sql, SqliteDialect } from 'kysely'
import { cacheStatements } from '../../src/db/statement-cache'

// SQLite only (the cache wraps better-sqlite3), so it runs the same under --pg.

function counted(size?: number) {
  const database = new BetterSqlite3(':memory:')
  let prepared = 0
  const original = database.prepare.bind(database)
  database.prepare = ((source: string) => {
    prepared += 1
    return original(source)
  }) as typeof database.prepare
  cacheStatements(database, size)
  return { database, prepared: () => prepared }
}

test('the same SQL text is prepared once and answers with each call’s own parameters', async () => {
  const { database, prepared } = counted()
  const db = new Kysely<{ t: { n: number } }>({ dialect: new SqliteDialect({ database }) })
  await sql`create table t (n integer)`.execute(db)
  await db
    .insertInto('t')
    .values([{ n: 1 }, { n: 2 }, { n: 3 }])
    .execute()
  const before = prepared()
  for (const n of [1, 2, 3, 2]) {
    const rows = await db.selectFrom('t').select('n').where('n', '=', n).execute()
    assert.deepEqual(rows, [{ n }])
  }
  assert.equal(prepared() - before, 1)
  await db.destroy()
})

test('a statement in the middle of an iteration is not handed out again', () => {
  const { database, prepared } = counted()
  database.exec('create table t (n integer); insert into t values (1), (2)')
  const outer = database.prepare('select n from t order by n')
  const cursor = outer.iterate()
  assert.deepEqual(cursor.next().value, { n: 1 })
  const before = prepared()
  // The same text while the first is still iterating: a fresh statement, not the busy one.
  const inner = database.prepare('select n from t order by n')
  assert.notEqual(inner, outer)
  assert.deepEqual(inner.all(), [{ n: 1 }, { n: 2 }])
  assert.equal(prepared() - before, 1)
  assert.deepEqual(cursor.next().value, { n: 2 })
  cursor.return?.()
  assert.equal(database.prepare('select n from t order by n'), outer)
  database.close()
})

test('the least recently used statement leaves a full cache', () => {
  const { database, prepared } = counted(2)
  const a = database.prepare('select 1')
  database.prepare('select 2')
  assert.equal(database.prepare('select 1'), a)
  database.prepare('select 3') // evicts select 2, the least recently used
  const before = prepared()
  assert.equal(database.prepare('select 1'), a)
  database.prepare('select 2')
  assert.equal(prepared() - before, 1)
  database.close()
})
