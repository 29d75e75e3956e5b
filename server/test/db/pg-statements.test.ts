import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { test } from 'node:test'
import pg from 'pg'
import { prepareStatements } from '../../src/db/pg-statements'
import { TEST_PG_URL } from '../helpers'

/**
 * PostgreSQL only: the pool's clients send Kysely's queries as named prepared statements
 * (src/db/pg-statements.ts). What PostgreSQL itself reports (pg_prepared_statements) is checked, not
 * the wrapper's own bookkeeping.
 */
const onPg = { skip: TEST_PG_URL ? false : 'PostgreSQL only: it wraps the pg driver' }

/** One connection in a schema of its own, wrapped as the server's pool wraps its clients. */
async function connection(size?: number) {
  const schema = `prep_${randomBytes(4).toString('hex')}`
  const pool = new pg.Pool({ connectionString: TEST_PG_URL, max: 1 })
  pool.on('connect', (client) => prepareStatements(client, size))
  const client = await pool.connect()
  await client.query(`create schema ${schema}`)
  await client.query(`set search_path to ${schema}`)
  await client.query('create table t (n integer)')
  await client.query('insert into t values (1), (2), (3)')
  const prepared = async () => {
    const result = await client.query('select statement from pg_prepared_statements', [])
    return result.rows.map((row: { statement: string }) => row.statement)
  }
  const close = async () => {
    await client.query(`drop schema ${schema} cascade`)
    client.release()
    await pool.end()
  }
  return { client, prepared, close }
}

test(
  'a query is prepared once per connection and answers with each call’s parameters',
  onPg,
  async () => {
    const { client, prepared, close } = await connection()
    try {
      const text = 'select n from t where n = $1'
      for (const n of [1, 2, 3, 2]) {
        const result = await client.query(text, [n])
        assert.deepEqual(result.rows, [{ n }])
      }
      assert.equal((await prepared()).filter((statement) => statement === text).length, 1)
    } finally {
      await close()
    }
  },
)

test(
  'the least recently used statement is deallocated past the size, and prepares again when used',
  onPg,
  async () => {
    const { client, prepared, close } = await connection(3)
    try {
      const texts = [1, 2, 3].map((k) => `select n + ${k} as m from t where n = $1`)
      for (const text of texts) await client.query(text, [1])
      // The catalogue query is the fourth statement: the first one is out.
      const now = await prepared()
      assert.ok(!now.includes(texts[0]!), 'the oldest was deallocated')
      assert.ok(now.includes(texts[2]!))
      const again = await client.query(texts[0]!, [2])
      assert.deepEqual(again.rows, [{ m: 3 }])
      assert.ok((await prepared()).includes(texts[0]!))
    } finally {
      await close()
    }
  },
)

test('scripts, utility commands and parameterless callbacks go as they are', onPg, async () => {
  const { client, prepared, close } = await connection()
  try {
    // Two statements in one text: only the simple protocol runs them.
    const result = (await client.query(
      'select 1 as a; select 2 as b',
      [],
    )) as unknown as pg.QueryResult[]
    assert.equal(result.length, 2)
    await client.query('analyze t', [])
    assert.deepEqual(await prepared(), ['select statement from pg_prepared_statements'])
  } finally {
    await close()
  }
})

test(
  'a column added under a prepared select * is read at once outside a transaction',
  onPg,
  async () => {
    const { client, close } = await connection()
    try {
      const text = 'select * from t where n = $1'
      assert.deepEqual((await client.query(text, [1])).rows, [{ n: 1 }])
      // Another process's migration (here the same connection, unprepared).
      await client.query('alter table t add column label text')
      assert.deepEqual((await client.query(text, [1])).rows, [{ n: 1, label: null }])
    } finally {
      await close()
    }
  },
)

test(
  'inside a transaction that change aborts it once; the next transaction reads the new shape',
  onPg,
  async () => {
    const { client, close } = await connection()
    try {
      const text = 'select * from t where n = $1'
      await client.query(text, [1])
      await client.query('alter table t add column label text')
      await client.query('begin', [])
      await assert.rejects(client.query(text, [1]), { code: '0A000' })
      await client.query('rollback', [])
      await client.query('begin', [])
      assert.deepEqual((await client.query(text, [1])).rows, [{ n: 1, label: null }])
      await client.query('commit', [])
    } finally {
      await close()
    }
  },
)
