import type { DB } from '../db'
import { demoWebOriginsStep, ensureFeatures } from './apps'
import {
  demoHospitalRegionsStep,
  demoHospitalsStep,
  demoHospitalKeysStep,
  removeDemoHospitalKeys,
} from './hospitals'
import { DEMO_ACCOUNTS, demoAccountsStep, verifyPassword, findUserByMobile } from './identity'
import { ensurePolicies } from './policies'
import { eraseAccount, removeStoredFiles } from './profile'

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
export const DEMO_STEPS: readonly DemoStep[] = [
  demoHospitalsStep,
  demoAccountsStep,
  demoHospitalRegionsStep,
  demoHospitalKeysStep,
  demoWebOriginsStep,
]

export interface SeedOptions {
  demo: boolean
  now?: () => Date
  demoSteps?: readonly DemoStep[]
  /** UPLOAD_DIR, so files the removed demo accounts uploaded go too (left on disk without it). */
  uploadDir?: string
}

export interface SeedReport {
  policiesInserted: number
  /** Apps-page features written (the defaults, once per database). */
  featuresInserted: number
  demoStepsRun: string[]
  /** Demo accounts removed because the server started with demo mode off. */
  demoAccountsRemoved: number
}

/** Idempotent: safe to call at every start, and from several server processes at once. */
export async function seed(db: DB, options: SeedOptions): Promise<SeedReport> {
  const now = options.now ?? (() => new Date())
  const policiesInserted = await ensurePolicies(db)
  // The apps page's features are the product, not demo data: written in every mode.
  const featuresInserted = await ensureFeatures(db, now())
  const demoStepsRun: string[] = []
  const demoAccountsRemoved = options.demo ? 0 : await removeDemoAccounts(db, now(), options)
  // The demo hospitals' keys are published in the README: never valid outside demo mode.
  if (!options.demo) await removeDemoHospitalKeys(db)
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
  return { policiesInserted, featuresInserted, demoStepsRun, demoAccountsRemoved }
}

/**
 * Demo mode off: the demo accounts must not survive, their passwords are in the README. An account
 * on a demo number counts as the demo's while its password is still the published one (one whose
 * owner set their own password is theirs, and is kept). It is erased like a deletion; its seed marker
 * goes too, so turning demo mode on again seeds fresh ones.
 */
export async function removeDemoAccounts(
  db: DB,
  now: Date,
  options: { uploadDir?: string | undefined } = {},
): Promise<number> {
  let removed = 0
  for (const account of DEMO_ACCOUNTS) {
    const user = await findUserByMobile(db, account.mobile)
    if (!user?.password_hash || !(await verifyPassword(user.password_hash, account.password))) {
      continue
    }
    const keys = await db
      .transaction()
      .execute(async (trx) => eraseAccount(trx, user.id, user.mobile, now))
    if (options.uploadDir) await removeStoredFiles(options.uploadDir, keys)
    removed += 1
  }
  await db.deleteFrom('seed_runs').where('name', '=', demoAccountsStep.name).execute()
  return removed
}
