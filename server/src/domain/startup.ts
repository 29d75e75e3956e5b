import type { Config } from '../config'
import type { FieldCipher } from '../crypto/field-cipher'
import type { DatabaseHandle } from '../db'
import type { ObjectStore } from '../storage'
import { createJobRunner, type JobRunner, type JobRunnerOptions } from '../jobs/runner'
import { removeDemoContent } from './content'
import { removeDemoRecords } from './demo-records'
import { fillExpertNames, removeDemoExperts } from './experts'
import { seed } from './seed'

/**
 * The start-up work on the database every process does (several at once behind a balancer; see
 * server/test/db/start-race.test.ts): migrations, seeds, and outside demo mode the demo's records and
 * content removed. Answers what it did, for the log.
 */
export async function prepareDatabase(
  config: Config,
  database: DatabaseHandle,
  store: ObjectStore,
  now: () => Date,
  cipher: FieldCipher,
): Promise<Record<string, unknown>> {
  const migrated = await database.migrate()
  // Experts certified before migration 0022 get their public name (a migration has no cipher).
  const expertNamesFilled = await fillExpertNames(database.db, cipher)
  const seeded = await seed(database.db, { demo: config.demoMode, uploadDir: config.uploadDir })
  // Demo hospitals' records go with their keys, before anyone can be served them.
  const demoRecordsRemoved = config.demoMode
    ? undefined
    : await removeDemoRecords(database.db, store, now())
  // Demo articles and videos go when demo mode is off (server.ts writes them when it is on).
  const demoContentRemoved = config.demoMode
    ? undefined
    : await removeDemoContent(database.db, store)
  // Demo experts (and the demo applicant's photos) go when demo mode is off, like the content.
  const demoExpertsRemoved = config.demoMode
    ? undefined
    : await removeDemoExperts(database.db, store)
  return {
    database: database.kind,
    migrated,
    expertNamesFilled,
    ...seeded,
    demoRecordsRemoved,
    demoContentRemoved,
    demoExpertsRemoved,
    demoMode: config.demoMode,
  }
}

/**
 * The process's job runner. On PostgreSQL it is shared with the other processes through pg-boss,
 * whose start (schema, queues) runs under the database's start-up lock: several processes creating
 * the queues at once deadlocked.
 */
export function createAppJobRunner(
  config: Config,
  database: DatabaseHandle,
  parts: Pick<JobRunnerOptions, 'kinds' | 'store' | 'cipher' | 'log' | 'now'>,
): JobRunner {
  return createJobRunner({
    db: database.db,
    ...parts,
    postgres:
      database.kind === 'postgres' && config.database.kind === 'postgres'
        ? { url: config.database.url, schema: config.database.schema }
        : undefined,
    startupLock: database.withStartupLock,
  })
}
