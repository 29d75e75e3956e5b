import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { test } from 'node:test'
import pg from 'pg'
import { createDatabase } from '../../src/db'
import { OwnSchemaPostgresIntrospector } from '../../src/db/postgres-dialect'
import { closeAfter, isolatedDatabase, TEST_PG_URL } from '../helpers'

/**
 * Kysely's stock PostgreSQL introspector read every schema of the database and called
 * has_schema_privilege() on each, so migrating while another application dropped its own schema failed
 * with 3F000 (seen as three failed test files when the PostgreSQL files ran side by side). Ours asks
 * about the connection's own schemas only.
 */
const onPg = { skip: TEST_PG_URL ? false : 'PostgreSQL only: the introspector is its dialect’s' }

/** Another application busy creating and dropping its own schemas, until `stop` is set. */
async function churnSchemas(signal: { stop: boolean }): Promise<number> {
  const client = new pg.Client({ connectionString: TEST_PG_URL })
  await client.connect()
  let rounds = 0
  try {
    while (!signal.stop) {
      const name = `churn_${randomBytes(4).toString('hex')}`
      await client.query(`create schema "${name}"`)
      await client.query(`create table "${name}".t (id serial primary key, v text)`)
      await client.query(`drop schema "${name}" cascade`)
      rounds += 1
    }
  } finally {
    await client.end()
  }
  return rounds
}

test(
  'migrations and the introspector never look at schemas other applications drop',
  onPg,
  async () => {
    const signal = { stop: false }
    const churn = churnSchemas(signal)
    try {
      const handle = createDatabase(isolatedDatabase())
      closeAfter(() => handle.destroy())
      await handle.migrate()
      const introspector = new OwnSchemaPostgresIntrospector(handle.db as never)
      for (let i = 0; i < 150; i += 1) {
        const tables = await introspector.getTables({ withInternalKyselyTables: true })
        assert.ok(tables.some((table) => table.name === 'kysely_migration'))
        assert.ok(tables.every((table) => !table.schema?.startsWith('churn_')))
      }
    } finally {
      signal.stop = true
    }
    assert.ok((await churn) > 10, 'the other application did drop schemas meanwhile')
  },
)

test('the introspector describes our tables and columns', onPg, async () => {
  const handle = createDatabase(isolatedDatabase())
  closeAfter(() => handle.destroy())
  await handle.migrate()
  const tables = await new OwnSchemaPostgresIntrospector(handle.db as never).getTables()
  const users = tables.find((table) => table.name === 'users')
  assert.ok(users, 'users table found')
  assert.ok(!tables.some((table) => table.name === 'kysely_migration'), 'internal tables left out')
  const id = users.columns.find((column) => column.name === 'id')
  assert.equal(id?.isNullable, false)
})

test('apps of several schemas migrate one fresh database at once', onPg, async () => {
  // A database of its own: the test database has pg_trgm already, from the first file that migrated.
  const name = `fresh_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: TEST_PG_URL })
  await admin.connect()
  await admin.query(`create database ${name}`)
  const url = new URL(TEST_PG_URL!)
  url.pathname = `/${name}`
  const handles = Array.from({ length: 6 }, (_, i) =>
    createDatabase({ kind: 'postgres', url: url.href, schema: `app_${i}` }),
  )
  try {
    const results = await Promise.allSettled(handles.map((handle) => handle.migrate()))
    const failures = results.flatMap((result) =>
      result.status === 'rejected' ? [String(result.reason)] : [],
    )
    assert.deepEqual(failures, [])
  } finally {
    await Promise.all(handles.map((handle) => handle.destroy()))
    await admin.query(`drop database ${name}`)
    await admin.end()
  }
})
