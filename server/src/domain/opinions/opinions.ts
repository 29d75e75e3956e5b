import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { ConsultDetail } from '@contract/main/consultations'
import {
  type AiDraft,
  type ImagePin,
  OPINION_MESSAGES,
  type OpinionDraft,
  type OpinionValues,
  type SignedOpinion,
} from '@contract/main/opinions'
import type { DB } from '../../db'
import { ApiError, badRequest, conflict, notFound, tooManyRequests } from '../../http/errors'
import { type ConsultContext, answer, readDetail } from '../consultations'
import { isUniqueViolation } from '../identity'
import { clientTag, reserve } from '../limits'
import {
  answerTexts,
  BUILT_IN_TEMPLATES,
  checkValues,
  fieldsOf,
  sentencesOf,
  templateById,
} from './templates'

/**
 * The 影像会诊's written opinion: the draft the expert fills from a template, the signature that
 * sends it as the consultation's answer, and the signed opinion the patient reads (and anyone
 * holding its PDF verifies by code). Who may do what is the consultation's rule (readDetail): its
 * expert writes, its patient reads.
 */

/** The AI drafts the consultation's expert may use (domain/ai; none where none is configured). */
export type AiDraftSource = (consultationId: string, expertId: string) => Promise<AiDraft[]>

export interface OpinionContext extends ConsultContext {
  aiDrafts: AiDraftSource
}

interface OpinionBody {
  consultationId: string
  templateId: string
  variantId?: string | null | undefined
  values: OpinionValues
  pins: ImagePin[]
  aiFields: Record<string, string>
}

const VERIFY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
/** Verification: 30 lookups per client network in 10 minutes (a code is 50 random bits). */
const VERIFY_RULE = { limit: 30, windowMs: 10 * 60_000 }

function verifyCode(): string {
  const bytes = randomBytes(10)
  return [...bytes].map((byte) => VERIFY_ALPHABET[byte % VERIFY_ALPHABET.length]).join('')
}

export function formatVerifyCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`
}

function patientLabel(detail: ConsultDetail): string {
  const person = detail.person
  const sex = person.sex === 'male' ? '男' : person.sex === 'female' ? '女' : ''
  return [person.nameMasked, sex, person.age !== null ? `${person.age}岁` : '']
    .filter(Boolean)
    .join(' ')
}

/** null: the expert may write and sign now; else the refusal to show. */
function blockedReason(detail: ConsultDetail, signed: boolean): string | null {
  if (detail.service !== 'imaging') return OPINION_MESSAGES.notImaging
  if (signed || detail.state === 'answered' || detail.state === 'completed')
    return OPINION_MESSAGES.signed
  if (detail.state !== 'in-progress' || detail.complaint?.state === 'open')
    return OPINION_MESSAGES.notAnswering
  return null
}

function sharedExams(detail: ConsultDetail) {
  const seen = new Map<string, { examId: string; title: string; modality: string }>()
  for (const record of detail.records) {
    if (record.kind !== 'exam' || seen.has(record.examId)) continue
    seen.set(record.examId, {
      examId: record.examId,
      title: record.title,
      modality: record.modalities.join('/'),
    })
  }
  return [...seen.values()]
}

async function expertDetail(ctx: ConsultContext, expertId: string, consultationId: string) {
  return readDetail(ctx, expertId, consultationId, 'expert')
}

/** Checks the body against the template, the consultation's exams and its AI drafts. */
async function checkBody(
  ctx: OpinionContext,
  expertId: string,
  detail: ConsultDetail,
  body: OpinionBody,
  mode: 'draft' | 'sign',
) {
  const template = templateById(body.templateId)
  checkValues(template, body.values, mode)
  const fields = fieldsOf(template)
  const exams = new Set(sharedExams(detail).map((one) => one.examId))
  for (const pin of body.pins) {
    if (!fields.has(pin.fieldId)) throw badRequest(OPINION_MESSAGES.pinField)
    if (!exams.has(pin.examId)) throw badRequest(OPINION_MESSAGES.pinExam)
  }
  const aiEntries = Object.entries(body.aiFields)
  let drafts: AiDraft[] = []
  if (aiEntries.length > 0) drafts = await ctx.aiDrafts(detail.id, expertId)
  for (const [fieldId, analysisId] of aiEntries) {
    if (!fields.has(fieldId) || !drafts.some((one) => one.analysisId === analysisId))
      throw badRequest(OPINION_MESSAGES.aiUnknown)
  }
  return { template, drafts }
}

function toDraft(row: {
  template_id: string
  variant_id: string | null
  values_json: string
  pins_json: string
  ai_json: string
  updated_at: string
}): OpinionDraft {
  return {
    templateId: row.template_id,
    variantId: row.variant_id,
    values: JSON.parse(row.values_json) as OpinionValues,
    pins: JSON.parse(row.pins_json) as ImagePin[],
    aiFields: JSON.parse(row.ai_json) as Record<string, string>,
    updatedAt: row.updated_at,
  }
}

/** 撰写会诊报告: the consultation as the report page needs it, the draft, or the signed opinion. */
export async function workspace(ctx: OpinionContext, expertId: string, consultationId: string) {
  const detail = await expertDetail(ctx, expertId, consultationId)
  const [draft, signedRow] = await Promise.all([
    ctx.db
      .selectFrom('opinion_drafts')
      .selectAll()
      .where('consultation_id', '=', detail.id)
      .executeTakeFirst(),
    ctx.db
      .selectFrom('opinions')
      .selectAll()
      .where('consultation_id', '=', detail.id)
      .executeTakeFirst(),
  ])
  return {
    consultationId: detail.id,
    grantId: detail.grant.id,
    patientLabel: patientLabel(detail),
    chiefComplaint: detail.chiefComplaint,
    blocked: blockedReason(detail, Boolean(signedRow)),
    exams: sharedExams(detail),
    draft: draft ? toDraft(draft) : null,
    signed: signedRow ? await describe(ctx.db, signedRow, 'expert') : null,
  }
}

/** Saves the draft as the expert types (one per consultation; the last save wins). */
export async function saveDraft(
  ctx: OpinionContext,
  expertId: string,
  body: OpinionBody,
): Promise<OpinionDraft> {
  const detail = await expertDetail(ctx, expertId, body.consultationId)
  const signed = await ctx.db
    .selectFrom('opinions')
    .select('id')
    .where('consultation_id', '=', detail.id)
    .executeTakeFirst()
  const blocked = blockedReason(detail, Boolean(signed))
  if (blocked) throw conflict(blocked)
  await checkBody(ctx, expertId, detail, body, 'draft')
  const row = {
    consultation_id: detail.id,
    expert_user_id: expertId,
    template_id: body.templateId,
    variant_id: body.variantId ?? null,
    values_json: JSON.stringify(body.values),
    pins_json: JSON.stringify(body.pins),
    ai_json: JSON.stringify(body.aiFields),
    updated_at: ctx.now().toISOString(),
  }
  await ctx.db
    .insertInto('opinion_drafts')
    .values(row)
    .onConflict((oc) =>
      oc.column('consultation_id').doUpdateSet({
        template_id: row.template_id,
        variant_id: row.variant_id,
        values_json: row.values_json,
        pins_json: row.pins_json,
        ai_json: row.ai_json,
        updated_at: row.updated_at,
      }),
    )
    .execute()
  return toDraft(row)
}

/** SHA-256 over the signed content, in a fixed key order (the PDF and verification show it). */
function contentHash(content: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(content), 'utf8').digest('hex')
}

/**
 * Signs the opinion (password or SMS code, as every signed answer) and sends it as the
 * consultation's answer, in one transaction: the answer message, the opinion, the state 已回复, the
 * draft gone. A retry with the same clientId answers the same opinion.
 */
export async function sign(
  ctx: OpinionContext,
  expertId: string,
  body: OpinionBody & {
    clientId: string
    password?: string | undefined
    smsCode?: string | undefined
  },
  ip?: string,
): Promise<SignedOpinion> {
  const detail = await expertDetail(ctx, expertId, body.consultationId)
  const existing = await ctx.db
    .selectFrom('opinions as o')
    .innerJoin('consultation_messages as m', 'm.id', 'o.message_id')
    .select(['o.id', 'm.client_id'])
    .where('o.consultation_id', '=', detail.id)
    .executeTakeFirst()
  if (existing) {
    if (existing.client_id === body.clientId) return readOpinion(ctx, expertId, existing.id)
    throw conflict(OPINION_MESSAGES.signed)
  }
  const blocked = blockedReason(detail, false)
  if (blocked) throw conflict(blocked)
  const { template, drafts } = await checkBody(ctx, expertId, detail, body, 'sign')
  const aiFieldIds = new Set(Object.keys(body.aiFields))
  const sentences = sentencesOf(template, body.values, aiFieldIds)
  const texts = answerTexts(sentences)
  if (!texts.findings) throw badRequest('请至少填写一项影像所见')
  const usedDrafts = drafts.filter((one) => Object.values(body.aiFields).includes(one.analysisId))
  const ai = usedDrafts[0] ? { provider: usedDrafts[0].provider, fieldIds: [...aiFieldIds] } : null
  const signer = {
    name: detail.expert.name,
    titleLabel: detail.expert.titleLabel,
    hospitalName: detail.expert.hospitalName,
    department: detail.expert.department,
  }
  const label = patientLabel(detail)
  const id = randomUUID()
  const code = verifyCode()
  try {
    await answer(
      ctx,
      expertId,
      {
        consultationId: detail.id,
        clientId: body.clientId,
        findings: texts.findings,
        opinion: texts.opinion,
        advice: texts.advice,
        password: body.password,
        smsCode: body.smsCode,
      },
      ip,
      {
        id,
        write: async (trx, message) => {
          if (!message.first) throw conflict(OPINION_MESSAGES.signed)
          const templateRef = {
            id: template.id,
            version: template.version,
            title: template.title,
            source: template.source,
          }
          const hash = contentHash({
            template: templateRef,
            sentences,
            pins: body.pins,
            ai,
            signer,
            patientLabel: label,
            signedAt: message.signedAt,
          })
          await trx
            .insertInto('opinions')
            .values({
              id,
              consultation_id: detail.id,
              message_id: message.id,
              expert_user_id: expertId,
              template_id: template.id,
              template_version: template.version,
              template_title: template.title,
              values_json: JSON.stringify(body.values),
              sentences_json: JSON.stringify(sentences),
              pins_json: JSON.stringify(body.pins),
              ai_json: JSON.stringify(ai),
              signer_json: JSON.stringify(signer),
              patient_label: label,
              verify_code: code,
              content_hash: hash,
              signed_at: message.signedAt,
            })
            .execute()
          await trx.deleteFrom('opinion_drafts').where('consultation_id', '=', detail.id).execute()
        },
      },
    )
  } catch (error) {
    // Two signatures at once: the other one's opinion is the consultation's.
    if (isUniqueViolation(error)) throw conflict(OPINION_MESSAGES.signed)
    throw error
  }
  const signed = await ctx.db
    .selectFrom('opinions')
    .select('id')
    .where('consultation_id', '=', detail.id)
    .executeTakeFirst()
  if (!signed) throw conflict(OPINION_MESSAGES.signed)
  return readOpinion(ctx, expertId, signed.id)
}

type OpinionRow = {
  id: string
  consultation_id: string
  template_id: string
  template_version: number
  template_title: string
  sentences_json: string
  pins_json: string
  ai_json: string
  signer_json: string
  patient_label: string
  verify_code: string
  content_hash: string
  signed_at: string
}

async function addenda(db: DB, consultationId: string) {
  const rows = await db
    .selectFrom('consultation_messages')
    .select(['text', 'signed_at', 'created_at'])
    .where('consultation_id', '=', consultationId)
    .where('kind', '=', 'addendum')
    .orderBy('seq')
    .execute()
  return rows.map((row) => ({ text: row.text, signedAt: row.signed_at ?? row.created_at }))
}

async function describe(
  db: DB,
  row: OpinionRow,
  role: 'patient' | 'expert',
): Promise<SignedOpinion> {
  const source = BUILT_IN_TEMPLATES.find((one) => one.id === row.template_id)?.source ?? ''
  return {
    id: row.id,
    consultationId: row.consultation_id,
    template: {
      id: row.template_id,
      version: Number(row.template_version),
      title: row.template_title,
      source,
    },
    sentences: JSON.parse(row.sentences_json) as SignedOpinion['sentences'],
    pins: JSON.parse(row.pins_json) as ImagePin[],
    ai: JSON.parse(row.ai_json) as SignedOpinion['ai'],
    signer: JSON.parse(row.signer_json) as SignedOpinion['signer'],
    patientLabel: row.patient_label,
    signedAt: row.signed_at,
    verifyCode: formatVerifyCode(row.verify_code),
    contentHash: row.content_hash,
    addenda: await addenda(db, row.consultation_id),
    role,
  }
}

/** The signed opinion, to the consultation's patient and its expert; 404 to anyone else. */
export async function readOpinion(
  ctx: ConsultContext,
  userId: string,
  opinionId: string,
): Promise<SignedOpinion> {
  const row = await ctx.db
    .selectFrom('opinions')
    .selectAll()
    .where('id', '=', opinionId)
    .executeTakeFirst()
  if (!row) throw notFound(OPINION_MESSAGES.notFound)
  let detail: ConsultDetail
  try {
    detail = await readDetail(ctx, userId, row.consultation_id)
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404)
      throw notFound(OPINION_MESSAGES.notFound)
    throw error
  }
  return describe(ctx.db, row, detail.role)
}

/**
 * 核验: what the PDF's code proves, to anyone holding it (no login): who signed which report for
 * whom (masked) and when, and the content's hash. Limited per client network.
 */
export async function verify(db: DB, code: string, ip: string | undefined, now: Date) {
  const slot = await reserve(db, { key: `opinion-verify:${clientTag(ip)}`, ...VERIFY_RULE, now })
  if (!slot.ok) throw tooManyRequests()
  const row = await db
    .selectFrom('opinions')
    .selectAll()
    .where('verify_code', '=', code.replace('-', '').toUpperCase())
    .executeTakeFirst()
  if (!row) throw notFound(OPINION_MESSAGES.verifyNotFound)
  return {
    verifyCode: formatVerifyCode(row.verify_code),
    templateTitle: row.template_title,
    signer: JSON.parse(row.signer_json) as SignedOpinion['signer'],
    patientLabel: row.patient_label,
    signedAt: row.signed_at,
    contentHash: row.content_hash,
    addenda: (await addenda(db, row.consultation_id)).length,
  }
}
