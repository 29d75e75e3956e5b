import type { DB } from '../db'
import { demoHospitalsStep } from './directory'
import { demoAccountsStep } from './identity/demo'
import { ensurePolicies } from './policies'

/** A named piece of demo data. It runs once per database, inside a transaction with its marker. */
export interface DemoStep {
  name: string
  run(db: DB, now: Date): Promise<void>
}

/**
 * Demo data for a fresh demo database. Empty in the foundation on purpose: hospitals, articles, the
 * demo patient and expert accounts and the synthetic CT series arrive with the issues that build those
 * features, each as a step here. Policies are not demo data and are written by ensurePolicies.
 */
export const DEMO_STEPS: readonly DemoStep[] = [demoHospitalsStep, demoAccountsStep]

export interface SeedOptions {
  demo: boolean
  now?: () => Date
  demoSteps?: readonly DemoStep[]
}

export interface SeedReport {
  policiesInserted: number
  demoStepsRun: string[]
}

/** Idempotent: safe to call at every start, and from several server processes at once. */
export async function seed(db: DB, options: SeedOptions): Promise<SeedReport> {
  const now = options.now ?? (() => new Date())
  const policiesInserted = await ensurePolicies(db)
  const demoStepsRun: string[] = []
  if (options.demo) {
    for (const step of options.demoSteps ?? DEMO_STEPS) {
      const ran = await db.transaction().execute(async (trx) => {
        // Claiming the marker first makes a concurrent seeder wait on the key and then skip the step.
        const claim = await trx
          .insertInto('seed_runs')
          .values({ name: step.name, ran_at: now().toISOString() })
          .onConflict((oc) => oc.column('name').doNothing())
          .executeTakeFirst()
        if (Number(claim.numInsertedOrUpdatedRows ?? 0n) === 0) return false
        await step.run(trx, now())
        return true
      })
      if (ran) demoStepsRun.push(step.name)
    }
  }
  return { policiesInserted, demoStepsRun }
}
