import type { Kysely } from 'kysely'
import type { AgreementKind } from '@contract/main/app'

/*
 * The typed shape of the database. Timestamps are ISO-8601 strings made by the app (never SQL defaults),
 * so SQLite and PostgreSQL store and return the same values; money, when it comes, is integer fen.
 */

/** One published version of a policy text. A published version is never edited: a change is a new row. */
export interface PolicyDocumentsTable {
  kind: AgreementKind
  /** `default` applies to every softwareName that has no text of its own. */
  software_name: string
  version: string
  title: string
  content: string
  updated_at: string
}

/** Seed steps that have run, so seeding is idempotent and safe with several server processes. */
export interface SeedRunsTable {
  name: string
  ran_at: string
}

export interface Database {
  policy_documents: PolicyDocumentsTable
  seed_runs: SeedRunsTable
}

export type DB = Kysely<Database>
