import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { before, test } from 'node:test'
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'
import { buildApp } from '../../src/app'
import { createDatabase, type DatabaseHandle } from '../../src/db'
import { seedDemoContent } from '../../src/domain/content/demo/seed'
import { Clock, type ProfileApp } from '../domain/profile/support'
import { closeAfter, isolatedDatabase, testConfig } from '../helpers'
import {
  addHospital,
  client,
  insertExam,
  insertReport,
  type Patient,
  patientWithCard,
} from './patient-support'

/*
 * What the pages a patient opens most cost in database statements. On PostgreSQL each statement is
 * a round trip to another process, which cost the server more CPU per request than SQLite's whole
 * query (bench/read-mix.ts); these are the budgets, on both databases.
 */

/**
 * Counts the statements the app runs, by their results (a subquery's builder passes through
 * transformQuery too, but is not run), named by kind and table for a failure's message.
 */
class StatementCounter implements KyselyPlugin {
  statements: string[] = []
  private names = new Map<QueryId, string>()
  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const from = 'from' in node && node.from ? node.from.froms : []
    const into = 'into' in node && node.into ? [node.into] : []
    const table = [...from, ...into]
      .map((item) => JSON.stringify(item).match(/"name":"([a-z_]+)"/)?.[1] ?? '?')
      .join(',')
    this.names.set(queryId, `${node.kind.replace('Node', '')} ${table}`)
    return node
  }
  async transformResult({
    result,
    queryId,
  }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.statements.push(this.names.get(queryId) ?? '?')
    this.names.delete(queryId)
    return result
  }
}

const counter = new StatementCounter()
let ctx: ProfileApp
let http: ReturnType<typeof client>
let alice: Patient
let examId: string

before(async () => {
  const handle = createDatabase(isolatedDatabase())
  const database: DatabaseHandle = { ...handle, db: handle.db.withPlugin(counter) }
  const clock = new Clock()
  const app = await buildApp(
    testConfig({
      uploadDir: path.join(os.tmpdir(), `round-trips-${randomBytes(4).toString('hex')}`),
    }),
    { database, now: clock.now },
  )
  closeAfter(() => app.close())
  ctx = { app, clock, logs: [] }
  http = client(app)
  await addHospital(app.db, { id: 'rt-a', name: '往返甲医院' })
  alice = await patientWithCard(ctx, '王往返')
  const exam = await insertExam(app.db, app.personalCipher, { hospitalId: 'rt-a', patient: alice })
  await insertReport(app.db, exam, { issuedAt: '2030-04-01T10:00:00Z' })
  examId = exam.id
  await seedDemoContent(app.db, app.store, clock.now())
})

/** The statements one GET runs, after a first call (connections, the list cache) has warmed up. */
async function statementsOf(url: string, token?: string): Promise<string[]> {
  assert.equal((await http.get(url, token)).statusCode, 200)
  counter.statements = []
  const res = await http.get(url, token)
  assert.equal(res.statusCode, 200, res.body)
  return counter.statements
}

test('我的报告 and 我的影像 unchanged since the last request: the session with its card, the change counters', async () => {
  for (const url of ['/main/reports', '/main/images']) {
    const statements = await statementsOf(url, alice.token)
    assert.equal(statements.length, 2, `${url}: ${statements.join('; ')}`)
  }
})

test('影像详情 of the patient’s own exam: the session, the exam, then its parts at once', async () => {
  const statements = await statementsOf(`/main/exams/${examId}`, alice.token)
  // session; exam; its report, the person's marks, its hospital, series, instances, files.
  assert.equal(statements.length, 8, statements.join('; '))
})

test('资讯列表: one statement, the page with its total', async () => {
  const statements = await statementsOf('/main/articles')
  assert.equal(statements.length, 1, statements.join('; '))
})
