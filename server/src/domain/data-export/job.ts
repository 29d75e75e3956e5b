import { DATA_EXPORT_MESSAGES } from '@contract/main/data-export'
import { insertQueuedJob, type JobKind } from '../../jobs/runner'
import type { SmsNotifier } from '../../providers/sms'
import type { ArchiveContext } from './archive'
import {
  DATA_EXPORT_JOB_KIND,
  downloadLink,
  expireExport,
  exportPrefix,
  hashToken,
  LINK_MS,
  newToken,
} from './exports'

/*
 * The export's work, a kind of the existing job runner (a row in ingest_jobs held by a lease): it
 * survives a restart, and on PostgreSQL exactly one process takes it. One kind does both steps of
 * an export, told apart by the export's state: `building` builds the archive and sends the link;
 * `sent` is the timer queued for the link's expiry, which deletes an archive nobody downloaded.
 *
 * Each attempt writes its own object (the attempt's batch id in the key), so a worker that lost
 * its lease can never overwrite what the new holder wrote. The SMS goes before the row says
 * `sent`, and the row keeps only the token's hash: a crash between the two leaves a link that was
 * never valid, and the retry sends a new one; a link that works was always sent.
 */

export interface DataExportJobContext {
  notifier: SmsNotifier
  fontPath: string | null
  opinionPdf: ArchiveContext['opinionPdf']
}

export function dataExportJob(context: () => DataExportJobContext): JobKind {
  return {
    kind: DATA_EXPORT_JOB_KIND,
    async process(job, ctx) {
      if (!job.subject_id) return { status: 'failed', message: '缺少导出编号' }
      const exportId = job.subject_id
      const row = await ctx.db
        .selectFrom('data_exports')
        .selectAll()
        .where('id', '=', exportId)
        .executeTakeFirst()
      if (!row) return { message: 'nothing to do' }
      const store = { db: ctx.db, store: ctx.store, now: ctx.now }
      if (row.state === 'sent') {
        const expired = await expireExport(store, exportId)
        return { message: expired ? 'expired' : 'not yet due' }
      }
      if (row.state !== 'building') return { message: 'nothing to do' }
      const requester = await ctx.db
        .selectFrom('users')
        .select('mobile')
        .where('id', '=', row.requested_by_user_id)
        .executeTakeFirst()
      if (!requester?.mobile) return { status: 'failed', message: DATA_EXPORT_MESSAGES.noMobile }
      const settings = context()
      const key = `${exportPrefix(exportId)}${ctx.batchId}.zip`
      // Loaded on the first export, not at start (archiver and the report PDFs).
      const { writeArchive } = await import('./archive')
      const summary = await writeArchive(
        {
          db: ctx.db,
          store: ctx.store,
          cipher: ctx.cipher,
          now: ctx.now,
          fontPath: settings.fontPath,
          opinionPdf: settings.opinionPdf,
          signal: ctx.signal,
        },
        row.person_user_id,
        key,
      )
      const token = newToken()
      try {
        await settings.notifier.notify(
          requester.mobile,
          DATA_EXPORT_MESSAGES.sms.replace('{link}', downloadLink(row.link_origin, token)),
        )
      } catch (error) {
        await ctx.store.delete(key).catch(() => undefined)
        throw error
      }
      const now = ctx.now()
      const at = now.toISOString()
      const expiresAt = new Date(now.getTime() + LINK_MS)
      const sent = await ctx.db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('data_exports')
          .set({
            state: 'sent',
            archive_key: key,
            size_bytes: summary.bytes,
            token_hash: hashToken(token),
            expires_at: expiresAt.toISOString(),
            updated_at: at,
          })
          .where('id', '=', exportId)
          .where('state', '=', 'building')
          .executeTakeFirst()
        if (Number(result.numUpdatedRows) !== 1) return false
        await insertQueuedJob(trx, {
          kind: DATA_EXPORT_JOB_KIND,
          userId: row.requested_by_user_id,
          stagingPrefix: `jobs-without-files/${exportId}-expiry/`,
          subjectId: exportId,
          runAfter: expiresAt,
        })
        return true
      })
      if (!sent) await ctx.store.delete(key).catch(() => undefined)
      return {
        message: `archive of ${summary.exams} exams, ${summary.instances} instances, ${summary.bytes} bytes`,
      }
    },
    async onFailed(job, ctx) {
      if (!job.subject_id) return
      const at = ctx.now().toISOString()
      await ctx.db
        .updateTable('data_exports')
        .set({ state: 'failed', message: DATA_EXPORT_MESSAGES.failed, updated_at: at })
        .where('id', '=', job.subject_id)
        .where('state', '=', 'building')
        .execute()
      await ctx.store.deletePrefix(exportPrefix(job.subject_id)).catch(() => undefined)
    },
  }
}
