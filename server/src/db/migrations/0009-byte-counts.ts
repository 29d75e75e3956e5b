import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely'

/*
 * Byte counts of the records tables become 64-bit. 0008 made them `integer`, which PostgreSQL keeps
 * in 4 bytes: a person's storage (used_bytes) stopped at 2047 MB and an upload (total_bytes) at
 * 2 GB. SQLite's INTEGER already holds 8 bytes, so only PostgreSQL changes; the pool reads int8 back
 * as a JavaScript number (src/db/index.ts), so no caller changes.
 *
 * instances.frame_bytes stays 4 bytes: one frame is one DICOM value, whose length field is 32-bit.
 */
const COLUMNS: Record<string, string[]> = {
  storage_usage: ['used_bytes'],
  ingest_jobs: ['total_bytes', 'received_bytes'],
  exams: ['size_bytes'],
  instances: ['file_size'],
  exam_files: ['size_bytes'],
}

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter

async function retype(db: Kysely<unknown>, type: 'bigint' | 'integer'): Promise<void> {
  if (!isPostgres(db)) return
  for (const [table, columns] of Object.entries(COLUMNS)) {
    // One ALTER TABLE per table: PostgreSQL rewrites the table once for all its columns.
    const changes = columns.map(
      (column) => sql`alter column ${sql.ref(column)} type ${sql.raw(type)}`,
    )
    await sql`alter table ${sql.table(table)} ${sql.join(changes)}`.execute(db)
  }
}

export const byteCounts: Migration = {
  up: (db: Kysely<unknown>) => retype(db, 'bigint'),
  // Fails (out of range) if a value no longer fits, rather than cutting it.
  down: (db: Kysely<unknown>) => retype(db, 'integer'),
}
