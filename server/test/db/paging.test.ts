import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { sql } from 'kysely'
import type { DB } from '../../src/db'
import { countRows, page, pageWindow } from '../../src/db/paging'
import { openTestDatabase } from '../helpers'

// Runs on the database the runner chose (SQLite, or PostgreSQL under --pg).

let db: DB
const names = Array.from({ length: 25 }, (_, i) => `row-${String(i + 1).padStart(2, '0')}`)

before(async () => {
  const handle = openTestDatabase()
  await handle.migrate()
  db = handle.db
  const rows = [...names, 'other-1', 'other-2', 'other-3']
  await db
    .insertInto('seed_runs')
    .values(rows.map((name) => ({ name, ran_at: '2026-11-28T00:00:00.000Z' })))
    .execute()
})

/** The 25 `row-` runs (the filter leaves the `other-` ones out), by name. */
const filtered = () => db.selectFrom('seed_runs').where('name', 'like', 'row-%')
const ordered = () => filtered().select('name').orderBy('name')

test('the first page: the defaults of the spec, and the total with the filter', async () => {
  const found = await page({}, ordered(), filtered())
  assert.deepEqual(found, {
    items: names.slice(0, 10).map((name) => ({ name })),
    total: 25,
    page: 1,
    pageSize: 10,
  })
})

test('a middle page, a last page and a page past the end', async () => {
  const middle = await page({ page: 2, pageSize: 7 }, ordered(), filtered())
  assert.deepEqual(
    middle.items.map((row) => row.name),
    names.slice(7, 14),
  )
  assert.deepEqual({ ...middle, items: [] }, { items: [], total: 25, page: 2, pageSize: 7 })

  const last = await page({ page: 3 }, ordered(), filtered())
  assert.deepEqual(
    last.items.map((row) => row.name),
    names.slice(20),
  )
  assert.equal(last.total, 25)

  const past = await page({ page: 9 }, ordered(), filtered())
  assert.deepEqual(past, { items: [], total: 25, page: 9, pageSize: 10 })
})

test('a list with a size of its own uses it when the query names none', async () => {
  const found = await page({ page: 2 }, ordered(), filtered(), { size: 20 })
  assert.equal(found.pageSize, 20)
  assert.deepEqual(
    found.items.map((row) => row.name),
    names.slice(20),
  )
  assert.equal((await page({ pageSize: 3 }, ordered(), filtered(), { size: 20 })).pageSize, 3)
})

test('a total the rows carry is taken from them; past the end it is counted', async () => {
  const carrying = () => ordered().select(sql<number | string>`count(*) over ()`.as('total'))
  const options = { totalOf: (row: { total: number | string }) => row.total }

  const first = await page({ pageSize: 4 }, carrying(), filtered(), options)
  assert.deepEqual(
    first.items.map((row) => row.name),
    names.slice(0, 4),
  )
  assert.equal(first.total, 25)

  const last = await page({ page: 5, pageSize: 6 }, carrying(), filtered(), options)
  assert.deepEqual(
    last.items.map((row) => row.name),
    names.slice(24),
  )
  assert.equal(last.total, 25)

  const past = await page({ page: 6, pageSize: 6 }, carrying(), filtered(), options)
  assert.deepEqual(past, { items: [], total: 25, page: 6, pageSize: 6 })

  // An empty first page has nothing to count: 0, without asking.
  const none = db.selectFrom('seed_runs').where('name', '=', 'nobody')
  const empty = await page(
    {},
    none.select('name').select(sql<number | string>`count(*) over ()`.as('total')),
    none,
    options,
  )
  assert.deepEqual(empty, { items: [], total: 0, page: 1, pageSize: 10 })
})

test('countRows counts what the query finds, whatever it selects', async () => {
  assert.equal(await countRows(filtered()), 25)
  assert.equal(await countRows(ordered()), 25)
  assert.equal(await countRows(db.selectFrom('seed_runs').selectAll()), names.length + 3)
})

test('pageWindow fills in the defaults and says where the page starts', () => {
  assert.deepEqual(pageWindow({}), { page: 1, pageSize: 10, offset: 0 })
  assert.deepEqual(pageWindow({ page: 3 }, 20), { page: 3, pageSize: 20, offset: 40 })
  assert.deepEqual(pageWindow({ page: 2, pageSize: 5 }, 20), { page: 2, pageSize: 5, offset: 5 })
})
