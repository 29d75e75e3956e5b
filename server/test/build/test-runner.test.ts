// test-server: no database
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import {
  describeOutcomes,
  NO_DATABASE_MARK,
  orderJobs,
  planJobs,
  tapCounts,
  testConcurrency,
} from '../../../scripts/test-server'

/** The server suite's own runner (scripts/test-server.ts): its pool, its order and its summary. */

test('files run one more than the cores at a time, 3 to 4, unless TEST_CONCURRENCY says otherwise', () => {
  assert.equal(testConcurrency({}, 1), 3)
  assert.equal(testConcurrency({}, 2), 3)
  assert.equal(testConcurrency({}, 16), 4)
  assert.equal(testConcurrency({ TEST_CONCURRENCY: '1' }, 2), 1)
  assert.equal(testConcurrency({ TEST_CONCURRENCY: 'x' }, 2), 3)
})

test('the longest files start first: by the last run here, else by size', () => {
  const jobs = [
    { file: 'server/test/http/serializer.test.ts', db: 'sqlite' as const },
    { file: 'server/test/db/start-race.test.ts', db: 'postgres' as const },
    { file: 'server/test/db/start-race.test.ts', db: 'sqlite' as const },
  ]
  const known = orderJobs(jobs, {
    'sqlite:server/test/http/serializer.test.ts': 90,
    'postgres:server/test/db/start-race.test.ts': 120,
    'sqlite:server/test/db/start-race.test.ts': 30,
  })
  assert.deepEqual(
    known.map((job) => `${job.db}:${job.file}`),
    [
      'postgres:server/test/db/start-race.test.ts',
      'sqlite:server/test/http/serializer.test.ts',
      'sqlite:server/test/db/start-race.test.ts',
    ],
  )
  // A fresh clone: the bigger file (start-race) before the small serializer test.
  assert.equal(orderJobs(jobs, {}).at(-1)?.file, 'server/test/http/serializer.test.ts')
})

test('a file marked as using no database runs once; every other file once per database', () => {
  const files = ['server/test/dicom/rle.test.ts', 'server/test/db/start-race.test.ts']
  const marked = (file: string) => file.includes('/dicom/')
  assert.deepEqual(planJobs(files, ['sqlite', 'postgres'], marked), [
    { file: 'server/test/dicom/rle.test.ts', db: 'none' },
    { file: 'server/test/db/start-race.test.ts', db: 'sqlite' },
    { file: 'server/test/db/start-race.test.ts', db: 'postgres' },
  ])
  assert.deepEqual(planJobs(files, ['sqlite'], () => false).length, 2)
  // The mark is read from the file's text: this file carries it.
  assert.ok(readFileSync(__filename, 'utf8').startsWith(`${NO_DATABASE_MARK}\n`))
})

test("a file's counts come from its TAP summary", () => {
  assert.deepEqual(tapCounts('ok 1 - a\n# tests 7\n# suites 0\n# pass 5\n# skipped 2\n'), {
    tests: 7,
    skipped: 2,
  })
  assert.deepEqual(tapCounts('crashed before any test'), { tests: 0, skipped: 0 })
})

test('the summary names failures per database and the ten slowest files', () => {
  const outcomes = Array.from({ length: 12 }, (_, i) => ({
    file: `server/test/f${i}.test.ts`,
    db: i % 2 === 0 ? ('sqlite' as const) : ('postgres' as const),
    ok: i !== 3,
    seconds: i,
    tests: 2,
    skipped: 0,
  }))
  const text = describeOutcomes(outcomes, 40)
  assert.match(text, /SQLite: 6 files, 12 tests, all passed/)
  assert.match(text, /PostgreSQL: 6 files, 12 tests, 1 files FAILED/)
  assert.match(text, /f11\.test\.ts \(PostgreSQL\)/)
  assert.doesNotMatch(text, /f1\.test\.ts/)
  assert.equal(text.split('\n').filter((line) => line.includes(' s  server/')).length, 10)
})
