import type { DB } from '../../db'
import type { ObjectStore } from '../../storage'
import { previewKeyPrefix } from '../records'
import { releaseStorage } from '../uploads'
import { DEMO_RECORDS_CLAIM, DEMO_RECORDS_MARKER } from './seed'

/*
 * Demo mode off: the records of demo hospitals go, as their keys and the demo accounts do. They are
 * synthetic people pushed with keys the README publishes (anyone could have added to them), so they
 * never belong in a real deployment. Rows first, in one transaction per exam, then the objects they
 * pointed at: a crash in between leaves unreferenced objects, never a row without its file.
 */

/** Exams handled per round trip: bounded memory however many studies were pushed by hand. */
const PAGE = 50

export interface DemoRecordsRemoved {
  exams: number
  jobs: number
}

const demoHospitalIds = (db: DB) => db.selectFrom('hospitals').select('id').where('demo', '=', 1)

export async function removeDemoRecords(
  db: DB,
  store: ObjectStore,
  now: Date,
): Promise<DemoRecordsRemoved> {
  let exams = 0
  for (;;) {
    const page = await db
      .selectFrom('exams')
      .select('id')
      .where('hospital_id', 'in', demoHospitalIds(db))
      .orderBy('id')
      .limit(PAGE)
      .execute()
    if (page.length === 0) break
    for (const { id } of page) {
      if (await removeExam(db, store, id, now)) exams += 1
    }
  }

  const marker = await db
    .selectFrom('seed_runs')
    .select('name')
    .where('name', '=', DEMO_RECORDS_MARKER)
    .executeTakeFirst()
  // Nothing left from demo mode: skip the job table (no index on hospital_id; this runs every start).
  if (exams === 0 && !marker) return { exams, jobs: 0 }

  // Pushes still waiting (or finished) for a demo hospital: a queued one would bring an exam back.
  const jobs = await db
    .deleteFrom('ingest_jobs')
    .where('hospital_id', 'in', demoHospitalIds(db))
    .returning(['staging_prefix'])
    .execute()
  for (const job of jobs) await store.deletePrefix(job.staging_prefix).catch(() => undefined)
  // Last, so a start interrupted above finishes the job table next time; demo mode on again
  // pushes the records afresh.
  await db
    .deleteFrom('seed_runs')
    .where('name', 'in', [DEMO_RECORDS_MARKER, DEMO_RECORDS_CLAIM])
    .execute()
  return { exams, jobs: jobs.length }
}

async function removeExam(db: DB, store: ObjectStore, examId: string, now: Date): Promise<boolean> {
  const instances = await db
    .selectFrom('instances')
    .select(['file_key', 'pixels_key'])
    .where('exam_id', '=', examId)
    .execute()
  // Photos a patient added to the exam count against that patient's storage: given back.
  const photos = await db
    .selectFrom('exam_files')
    .select(['file_key', 'size_bytes', 'user_id'])
    .where('exam_id', '=', examId)
    .execute()
  const removed = await db.transaction().execute(async (trx) => {
    // Series, instances, reports and their versions, photos, claims and per-person states cascade.
    const result = await trx.deleteFrom('exams').where('id', '=', examId).executeTakeFirst()
    if (Number(result.numDeletedRows) !== 1) return false
    for (const photo of photos) {
      await releaseStorage(trx, photo.user_id, Number(photo.size_bytes), now)
    }
    return true
  })
  if (!removed) return false // another process removed it first
  const keys = [
    ...instances.flatMap((row) => [row.file_key, ...(row.pixels_key ? [row.pixels_key] : [])]),
    ...photos.map((photo) => photo.file_key),
  ]
  for (const key of keys) await store.delete(key).catch(() => undefined)
  await store.deletePrefix(previewKeyPrefix(examId)).catch(() => undefined)
  return true
}
