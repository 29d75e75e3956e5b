import type { JobKind } from '../../jobs/runner'
import type { AiAnalysisProvider } from '../../providers/ai'
import { AI_JOB_FAILED, AI_JOB_KIND } from './analyses'
import { loadStudy } from './study'

/** Said when the provider a request was made with is no longer the configured one. */
export const AI_PROVIDER_CHANGED = '提交时的 AI 分析服务已停用，请重新申请'

/*
 * The analysis runs as a job of the existing runner (a row in ingest_jobs, held by a lease): it
 * survives a restart, and a worker killed mid-analysis leaves the job to be taken again (runner.ts),
 * so a request is never lost. The analysis is deterministic and reads only, so running it again is
 * harmless; its one write (the result, or the reason it failed) is a transaction that commits only
 * while this attempt holds the job, and only over a row still queued.
 */
export function aiAnalysisJob(provider: () => AiAnalysisProvider): JobKind {
  return {
    kind: AI_JOB_KIND,
    async process(job, ctx) {
      const row = await ctx.db
        .selectFrom('ai_analyses')
        .select(['id', 'exam_id', 'provider_id', 'state'])
        .where('job_id', '=', job.id)
        .executeTakeFirst()
      // The exam was deleted (cascade), or another attempt finished it.
      if (!row || row.state !== 'queued') return { message: 'nothing to do' }
      const current = provider()
      const finish = async (
        set: { state: 'done' | 'failed' } & Partial<{
          message: string
          template_id: string
          result_json: string
        }>,
      ) => {
        const at = ctx.now().toISOString()
        await ctx.db.transaction().execute(async (trx) => {
          await trx
            .updateTable('ai_analyses')
            .set({ ...set, updated_at: at, finished_at: at })
            .where('id', '=', row.id)
            .where('state', '=', 'queued')
            .execute()
        })
      }
      if (current.info?.id !== row.provider_id) {
        await finish({ state: 'failed', message: AI_PROVIDER_CHANGED })
        return { status: 'failed', message: AI_PROVIDER_CHANGED }
      }
      const study = await loadStudy(ctx.db, ctx.store, row.exam_id)
      const result = await current.analyse(study, ctx.signal)
      if (!result.ok) {
        await finish({ state: 'failed', message: result.reason })
        return { status: 'failed', message: result.reason }
      }
      await finish({
        state: 'done',
        template_id: result.templateId,
        result_json: JSON.stringify({
          seriesUid: result.seriesUid,
          values: result.values,
          computed: result.computed,
        }),
      })
      // The job row's message stays free of the result: it is not the place for it.
      return { message: 'done' }
    },
    async onFailed(job, ctx) {
      const at = ctx.now().toISOString()
      await ctx.db
        .updateTable('ai_analyses')
        .set({ state: 'failed', message: AI_JOB_FAILED, updated_at: at, finished_at: at })
        .where('job_id', '=', job.id)
        .where('state', '=', 'queued')
        .execute()
    },
  }
}
