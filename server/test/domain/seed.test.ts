import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { DEFAULT_FEATURES } from '../../src/domain/apps/features'
import { buildApp } from '../../src/app'
import { DEMO_STEPS, type DemoStep, seed } from '../../src/domain/seed'
import { POLICY_TEXTS } from '../../src/domain/policy-texts'
import {
  closeAfter,
  isolatedDatabase,
  openTestDatabase,
  TEST_DB_KIND,
  testConfig,
} from '../helpers'

function countingStep(name: string): DemoStep & { runs: number } {
  const step = {
    name,
    runs: 0,
    async run() {
      step.runs++
    },
  }
  return step
}

async function migrated() {
  const handle = openTestDatabase()
  await handle.migrate()
  return handle
}

test('demo steps have unique names', () => {
  const names = DEMO_STEPS.map((step) => step.name)
  assert.equal(new Set(names).size, names.length)
})

test('outside demo mode: policies are written, demo data is not', async () => {
  const { db } = await migrated()
  const step = countingStep('demo-probe')
  const report = await seed(db, { demo: false, demoSteps: [step] })
  assert.deepEqual(report, {
    policiesInserted: POLICY_TEXTS.length,
    featuresInserted: DEFAULT_FEATURES.length,
    demoStepsRun: [],
    demoAccountsRemoved: 0,
  })
  assert.equal(step.runs, 0)
  assert.equal((await db.selectFrom('seed_runs').selectAll().execute()).length, 0)
})

test('in demo mode: policies and demo data, each step once however often seed runs', async () => {
  const { db } = await migrated()
  const step = countingStep('demo-probe')
  const now = () => new Date('2026-11-22T01:02:03.000Z')
  const first = await seed(db, { demo: true, now, demoSteps: [step] })
  assert.deepEqual(first, {
    policiesInserted: POLICY_TEXTS.length,
    featuresInserted: DEFAULT_FEATURES.length,
    demoStepsRun: ['demo-probe'],
    demoAccountsRemoved: 0,
  })
  const second = await seed(db, { demo: true, now, demoSteps: [step] })
  assert.deepEqual(second, {
    policiesInserted: 0,
    featuresInserted: 0,
    demoStepsRun: [],
    demoAccountsRemoved: 0,
  })
  assert.equal(step.runs, 1)
  const runs = await db.selectFrom('seed_runs').selectAll().execute()
  assert.deepEqual(runs, [{ name: 'demo-probe', ran_at: '2026-11-22T01:02:03.000Z' }])
})

test('a failing demo step leaves no marker, so the next start retries it', async () => {
  const { db } = await migrated()
  const failing: DemoStep = {
    name: 'demo-failing',
    async run(trx) {
      await trx.insertInto('seed_runs').values({ name: 'side-effect', ran_at: 'x' }).execute()
      throw new Error('boom')
    },
  }
  await assert.rejects(seed(db, { demo: true, demoSteps: [failing] }), /boom/)
  assert.equal((await db.selectFrom('seed_runs').selectAll().execute()).length, 0)
})

test('building the app twice on one database migrates and seeds idempotently', async () => {
  // In-memory SQLite would be a new database per build; a file is the same database after a restart.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-seed-'))
  after(() => rmSync(dir, { recursive: true, force: true }))
  for (const demoMode of [false, true]) {
    const database =
      TEST_DB_KIND === 'sqlite'
        ? { kind: 'sqlite' as const, file: path.join(dir, `${demoMode}.sqlite`) }
        : isolatedDatabase()
    const config = testConfig({ demoMode, database })
    const firstApp = await buildApp(config)
    await firstApp.close()
    const secondApp = await buildApp(config)
    closeAfter(() => secondApp.close())
    const res = await secondApp.inject('/main/app/version?softwareName=yingxiang-weapp')
    assert.equal(res.json().code, 200)
    const rows = await secondApp.db.selectFrom('policy_documents').selectAll().execute()
    assert.equal(rows.length, POLICY_TEXTS.length)
  }
})
