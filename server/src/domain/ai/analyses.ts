import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import {
  AI_ANALYSIS_STATE_LABELS,
  AI_MESSAGES,
  type AiAnalysisState,
  type AiAnalysisStatus,
  type AiAnalysisView,
  type AiService,
} from '@contract/main/ai'
import { CONSENT_TEXT_VERSIONS } from '@contract/main/consents'
import { CONSULT_MESSAGES } from '@contract/main/consultations'
import { GRANT_MESSAGES } from '@contract/main/grants'
import type { AiDraft, AiProvider } from '@contract/main/opinions'
import { REASONS } from '@contract/reasons'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { AiAnalysesTable, ExamsTable, IngestJobsTable } from '../../db/schema'
import { badRequest, forbidden, notFound } from '../../http/errors'
import { insertQueuedJob, type JobRunner } from '../../jobs/runner'
import { type AiAnalysisProvider, AI_NOT_CONFIGURED } from '../../providers/ai'
import { CONSENT_CHANNELS, writeConsent } from '../consents'
import { isUniqueViolation } from '../identity'
import { boundIdentity, modalityList, reachExam } from '../records'

/*
 * 申请AI分析 and its drafts (issue 23, "AI only as a draft"). The one rule of this folder: a result
 * (result_json) is read by expertDrafts only, for the expert of a consultation whose active grant
 * shares the exam. Everything the patient's side answers (AiAnalysisStatus, AiAnalysisView) is
 * built without reading it.
 */

export const AI_JOB_KIND = 'ai-analysis'

type Analysis = Selectable<AiAnalysesTable>
type JobState = Pick<Selectable<IngestJobsTable>, 'status' | 'message'>

export interface AiContext {
  db: DB
  cipher: FieldCipher
  jobs: JobRunner
  provider: AiAnalysisProvider
  now: () => Date
}

/** Said when a job could not finish for a reason of ours (a crash each attempt, a store down). */
export const AI_JOB_FAILED = '分析未能完成，请稍后重新申请'

export function aiService(provider: AiAnalysisProvider): AiService {
  return provider.info
    ? { configured: true, provider: provider.info, message: provider.info.notice }
    : { configured: false, provider: null, message: AI_NOT_CONFIGURED }
}

/**
 * The exam, if the caller may ask for its analysis: their own, or a person's they manage (the
 * records' one access rule, domain/records/access.ts). A grantee (an expert through a consultation)
 * is not its person: 404, exactly as for an exam that does not exist.
 */
async function examOfPerson(
  ctx: Pick<AiContext, 'db' | 'cipher'>,
  userId: string,
  examId: string,
): Promise<{ exam: ExamsTable; personId: string }> {
  const caller = { kind: 'user' as const, userId }
  const reached = await reachExam(
    ctx.db,
    ctx.cipher,
    caller,
    await boundIdentity(ctx.db, ctx.cipher, userId),
    examId,
  )
  return { exam: reached.exam, personId: reached.memberId ?? userId }
}

/** Why this exam cannot be analysed by this provider; null when it can. */
function notApplicable(exam: ExamsTable, provider: AiAnalysisProvider): string | null {
  if (!provider.info) return AI_NOT_CONFIGURED
  const modalities = modalityList(exam.modalities).map((m) => m.toUpperCase())
  if (!provider.modalities.some((m) => modalities.includes(m))) return AI_MESSAGES.notCt
  if (exam.status !== 'ready') return AI_MESSAGES.notReady
  return null
}

function stateOf(row: Analysis, job: JobState | undefined): AiAnalysisState {
  if (row.state === 'done') return 'done'
  if (row.state === 'failed') return 'failed'
  if (job?.status === 'failed' || job?.status === 'cancelled') return 'failed'
  return job?.status === 'running' ? 'running' : 'queued'
}

/** The patient's view of one request: its state and a line, never its result. */
function toStatus(row: Analysis, job: JobState | undefined): AiAnalysisStatus {
  const state = stateOf(row, job)
  return {
    id: row.id,
    examId: row.exam_id,
    state,
    stateLabel: AI_ANALYSIS_STATE_LABELS[state],
    message:
      state === 'failed' ? (row.message ?? job?.message ?? AI_JOB_FAILED) : AI_MESSAGES.draftOnly,
    provider: JSON.parse(row.provider_json) as AiProvider,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

// The patient's side selects these columns only: result_json is never read for them.
const STATUS_COLUMNS = [
  'ai_analyses.id',
  'ai_analyses.exam_id',
  'ai_analyses.person_user_id',
  'ai_analyses.requested_by_user_id',
  'ai_analyses.provider_id',
  'ai_analyses.provider_json',
  'ai_analyses.state',
  'ai_analyses.job_id',
  'ai_analyses.message',
  'ai_analyses.template_id',
  'ai_analyses.created_at',
  'ai_analyses.updated_at',
  'ai_analyses.finished_at',
] as const

async function latestFor(
  db: DB,
  examId: string,
  liveOnly: boolean,
): Promise<{ row: Analysis; job: JobState | undefined } | undefined> {
  let query = db
    .selectFrom('ai_analyses')
    .leftJoin('ingest_jobs', 'ingest_jobs.id', 'ai_analyses.job_id')
    .select([
      ...STATUS_COLUMNS,
      'ingest_jobs.status as job_status',
      'ingest_jobs.message as job_message',
    ])
    .where('ai_analyses.exam_id', '=', examId)
  if (liveOnly) query = query.where('ai_analyses.state', '<>', 'failed')
  const found = await query
    .orderBy('ai_analyses.created_at', 'desc')
    .orderBy('ai_analyses.id', 'desc')
    .executeTakeFirst()
  if (!found) return undefined
  const { job_status: status, job_message: message, ...row } = found
  return {
    row: { ...row, result_json: null },
    job: status === null ? undefined : { status, message },
  }
}

export async function analysisView(
  ctx: AiContext,
  userId: string,
  examId: string,
): Promise<AiAnalysisView> {
  const { exam } = await examOfPerson(ctx, userId, examId)
  const latest = await latestFor(ctx.db, exam.id, false)
  const why = notApplicable(exam, ctx.provider)
  return {
    service: aiService(ctx.provider),
    applicable: why === null,
    notApplicable: why,
    analysis: latest ? toStatus(latest.row, latest.job) : null,
  }
}

/**
 * 申请AI分析: the request and its job in one transaction, the job started after the commit. Asking
 * again while one is queued, running or done answers that one (two requests at once: the unique
 * index lets one in, the other reads it).
 */
export async function applyAnalysis(
  ctx: AiContext,
  userId: string,
  examId: string,
): Promise<AiAnalysisStatus> {
  const { exam, personId } = await examOfPerson(ctx, userId, examId)
  const live = await latestFor(ctx.db, exam.id, true)
  if (live) return toStatus(live.row, live.job)
  const info = ctx.provider.info
  // 400, not 503, so the text reaches the person (a 5xx carries only its status's summary), as
  // 未配置实名核验 does (providers/real-name.ts).
  if (!info) throw badRequest(AI_NOT_CONFIGURED)
  const why = notApplicable(exam, ctx.provider)
  if (why) throw badRequest(why)
  const at = ctx.now().toISOString()
  const id = randomUUID()
  const jobId = randomUUID()
  try {
    const job = await ctx.db.transaction().execute(async (trx) => {
      const queued = await insertQueuedJob(trx, {
        id: jobId,
        kind: AI_JOB_KIND,
        userId,
        examId: exam.id,
        stagingPrefix: `jobs-without-files/${jobId}/`,
        subjectId: id,
      })
      await trx
        .insertInto('ai_analyses')
        .values({
          id,
          exam_id: exam.id,
          person_user_id: personId,
          requested_by_user_id: userId,
          provider_id: info.id,
          provider_json: JSON.stringify(info),
          state: 'queued',
          job_id: jobId,
          message: null,
          template_id: null,
          result_json: null,
          created_at: at,
          updated_at: at,
          finished_at: null,
        })
        .execute()
      const what = [exam.study_date, exam.description ?? exam.body_part].filter(Boolean).join(' ')
      await writeConsent(
        trx,
        {
          userId,
          subjectId: personId,
          purpose: 'ai-analysis',
          version: CONSENT_TEXT_VERSIONS['ai-analysis'],
          targetId: id,
          channel: CONSENT_CHANNELS.aiAnalysis,
          detail: `AI 分析影像${what ? `（${what}）` : ''}`,
        },
        ctx.now(),
      )
      return queued
    })
    if (ctx.jobs.serves(AI_JOB_KIND)) await ctx.jobs.dispatch(job)
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
  }
  const after = await latestFor(ctx.db, exam.id, true)
  if (!after) throw new Error('ai analysis vanished after insert')
  return toStatus(after.row, after.job)
}

/** Consultation states in which the expert has (or had) the case: paid for and not withdrawn. */
const EXPERT_STATES_HIDDEN = ['pending-payment', 'cancelled']

/**
 * The drafts of a consultation, for its expert only: finished analyses of the exams its grant shares
 * (images, not a report alone), newest first. Anyone else, and an unpaid consultation: 404 as for
 * one that does not exist (as consultationFor answers); a grant the patient revoked or that
 * expired: 403 授权已失效, as every read through it.
 */
export async function expertDrafts(
  db: DB,
  expertId: string,
  consultationId: string,
  now: Date,
): Promise<AiDraft[]> {
  const consultation = await db
    .selectFrom('consultations')
    .select(['id', 'expert_user_id', 'state', 'grant_id'])
    .where('id', '=', consultationId)
    .executeTakeFirst()
  if (
    !consultation ||
    consultation.expert_user_id !== expertId ||
    EXPERT_STATES_HIDDEN.includes(consultation.state)
  ) {
    throw notFound(CONSULT_MESSAGES.notFound)
  }
  const grant = await db
    .selectFrom('grants')
    .select(['id', 'grantee_user_id', 'consultation_id', 'revoked_at', 'expires_at'])
    .where('id', '=', consultation.grant_id)
    .executeTakeFirst()
  if (
    !grant ||
    grant.grantee_user_id !== expertId ||
    grant.consultation_id !== consultation.id ||
    grant.revoked_at !== null ||
    grant.expires_at <= now.toISOString()
  ) {
    throw forbidden(GRANT_MESSAGES.ended, REASONS.grantEnded)
  }
  const rows = await db
    .selectFrom('ai_analyses')
    .selectAll()
    .where('state', '=', 'done')
    .where('exam_id', 'in', (eb) =>
      eb
        .selectFrom('grant_records')
        .select('grant_records.exam_id')
        .where('grant_records.grant_id', '=', grant.id)
        .where('grant_records.kind', '=', 'exam'),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  return rows.flatMap((row) => {
    if (!row.result_json || !row.template_id) return []
    const result = JSON.parse(row.result_json) as Pick<AiDraft, 'values' | 'computed'>
    return [
      {
        analysisId: row.id,
        examId: row.exam_id,
        provider: JSON.parse(row.provider_json) as AiProvider,
        templateId: row.template_id,
        values: result.values,
        computed: result.computed,
        createdAt: row.finished_at ?? row.updated_at,
      },
    ]
  })
}

/**
 * Account deletion (profile/account.ts eraseAccount): the analyses of the person's exams go (they
 * are derived from their images); those they asked for a member keep the member's, without them.
 */
export async function forgetAiAnalysesOf(db: DB, userId: string): Promise<void> {
  await db.deleteFrom('ai_analyses').where('person_user_id', '=', userId).execute()
  await db
    .updateTable('ai_analyses')
    .set({ requested_by_user_id: null })
    .where('requested_by_user_id', '=', userId)
    .execute()
}
