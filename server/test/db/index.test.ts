import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { sql } from 'kysely'
import { createDatabase } from '../../src/db'
import { migrations } from '../../src/db/migrations'
import { openTestDatabase, TEST_DB_KIND } from '../helpers'

test('migrations apply once and are idempotent', async () => {
  const handle = openTestDatabase()
  assert.equal(handle.kind, TEST_DB_KIND)
  const first = await handle.migrate()
  assert.deepEqual(first, Object.keys(migrations))
  const second = await handle.migrate()
  assert.deepEqual(second, [])
  const tables = (await handle.db.introspection.getTables()).map((table) => table.name)
  for (const name of ['policy_documents', 'seed_runs']) assert.ok(tables.includes(name), name)
})

test('migration names sort in the order they must run', () => {
  const names = Object.keys(migrations)
  assert.deepEqual([...names].sort(), names)
  for (const name of names) assert.match(name, /^\d{4}-[a-z0-9-]+$/)
})

test('timestamps round-trip as the ISO strings the app wrote', async () => {
  const handle = openTestDatabase()
  await handle.migrate()
  const at = '2026-11-22T08:30:00.123Z'
  await handle.db.insertInto('seed_runs').values({ name: 'probe', ran_at: at }).execute()
  const row = await handle.db
    .selectFrom('seed_runs')
    .selectAll()
    .where('name', '=', 'probe')
    .executeTakeFirstOrThrow()
  assert.equal(row.ran_at, at)
})

test('the primary key keeps policy versions unique', async () => {
  const handle = openTestDatabase()
  await handle.migrate()
  const row = {
    kind: 'privacy' as const,
    software_name: 'default',
    version: '9',
    title: 't',
    content: 'c',
    updated_at: '2026-01-01T00:00:00.000Z',
  }
  await handle.db.insertInto('policy_documents').values(row).execute()
  await assert.rejects(handle.db.insertInto('policy_documents').values(row).execute())
})

test('ping answers false once the database is closed', async () => {
  const handle = openTestDatabase()
  assert.equal(await handle.ping(), true)
  await handle.destroy()
  assert.equal(await handle.ping(), false)
})

test(
  'a SQLite file database uses WAL and enforces foreign keys',
  { skip: TEST_DB_KIND !== 'sqlite' },
  async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-db-'))
    const handle = createDatabase({ kind: 'sqlite', file: path.join(dir, 'nested', 'app.sqlite') })
    try {
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(handle.db)
      assert.equal(mode.rows[0]?.journal_mode, 'wal')
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(handle.db)
      assert.equal(fk.rows[0]?.foreign_keys, 1)
    } finally {
      await handle.destroy()
      rmSync(dir, { recursive: true, force: true })
    }
  },
)
