import { randomInt, randomUUID } from 'node:crypto'
import type { ConsultDetail, ConsultExamRequestCard } from '@contract/main/consultations'
import {
  EXAM_CONTRAST_LABELS,
  EXAM_REQUEST_MESSAGES,
  EXAM_REQUEST_NOTICE,
  EXAM_URGENCY_LABELS,
  type ExamContrast,
  type ExamRequest,
  type ExamRequestForm,
  type ExamType,
  examTypeLabel,
  type ExamUrgency,
} from '@contract/main/exam-requests'
import type { DB } from '../../db'
import type { ExamRequestsTable } from '../../db/schema'
import { ApiError, badRequest, notFound } from '../../http/errors'
import { type ConsultContext, readDetail, sendExamRequestMessage } from '../consultations'
import { isUniqueViolation } from '../identity'

/*
 * 检查申请单: the expert's suggestion of an exam, sent in the consultation (a message of kind
 * 'exam-request') and read as a form by the consultation's patient and its expert only.
 */

const BEIJING_OFFSET_MS = 8 * 3_600_000

/**
 * JC + the day + 6 random digits. Digits only: Code 128 packs two per bar symbol, so the bar code
 * is short enough to draw 2 px per module on a phone (a scanner at a desk reads it easily) and a
 * clerk types it from the line under the bars. A clash within the day (unique index) is drawn again.
 */
function requestNumber(now: Date): string {
  // Beijing's day (UTC+8 all year), as the form's 开单日期 reads in China.
  const day = new Date(now.getTime() + BEIJING_OFFSET_MS)
    .toISOString()
    .slice(0, 10)
    .replaceAll('-', '')
  return `JC${day}${randomInt(0, 1_000_000).toString().padStart(6, '0')}`
}

const NUMBER_ATTEMPTS = 3

const SEX_LABELS = { male: '男', female: '女', unknown: '' } as const

type Row = ExamRequestsTable

function describe(row: Row, role: 'patient' | 'expert'): ExamRequest {
  const examType = row.exam_type as ExamType
  const contrast = row.contrast as ExamContrast
  const urgency = row.urgency as ExamUrgency
  return {
    id: row.id,
    number: row.number,
    consultationId: row.consultation_id,
    examType,
    examTypeLabel: examTypeLabel(examType, row.exam_name),
    bodyPart: row.body_part,
    contrast,
    contrastLabel: EXAM_CONTRAST_LABELS[contrast],
    urgency,
    urgencyLabel: EXAM_URGENCY_LABELS[urgency],
    reason: row.reason,
    patient: JSON.parse(row.patient_json) as ExamRequest['patient'],
    expert: JSON.parse(row.expert_json) as ExamRequest['expert'],
    createdAt: row.created_at,
    notice: EXAM_REQUEST_NOTICE,
    role,
  }
}

/** The consultation as `userId` may read it; 404 (in our words) for anyone else. */
async function detailFor(ctx: ConsultContext, userId: string, consultationId: string) {
  try {
    return await readDetail(ctx, userId, consultationId)
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404)
      throw notFound(EXAM_REQUEST_MESSAGES.notFound)
    throw error
  }
}

async function byClientId(db: DB, consultationId: string, clientId: string) {
  return db
    .selectFrom('exam_requests')
    .selectAll()
    .where('consultation_id', '=', consultationId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()
}

/**
 * The consultation's expert suggests an exam while answering it (进行中 or 已回复); anyone else
 * gets the consultation's 404. Idempotent by clientId.
 */
export async function createExamRequest(
  ctx: ConsultContext,
  expertId: string,
  input: ExamRequestForm & { consultationId: string; clientId: string },
): Promise<ExamRequest> {
  const detail: ConsultDetail = await readDetail(ctx, expertId, input.consultationId, 'expert')
  if (input.examType === 'other' && !input.examName?.trim())
    throw badRequest(EXAM_REQUEST_MESSAGES.examName)
  const again = await byClientId(ctx.db, detail.id, input.clientId)
  if (again) return describe(again, 'expert')
  const id = randomUUID()
  const now = ctx.now()
  const examName = input.examType === 'other' ? (input.examName?.trim() ?? null) : null
  const label = examTypeLabel(input.examType, examName)
  const card: ConsultExamRequestCard = {
    id,
    examTypeLabel: label,
    bodyPart: input.bodyPart.trim(),
    urgency: input.urgency,
    urgencyLabel: EXAM_URGENCY_LABELS[input.urgency],
  }
  const person = detail.person
  const send = (number: string) =>
    sendExamRequestMessage(
      ctx,
      expertId,
      {
        consultationId: detail.id,
        clientId: input.clientId,
        text: `检查建议：${label} · ${card.bodyPart}`,
        card,
        refusal: EXAM_REQUEST_MESSAGES.notAnswering,
      },
      async (trx, message) => {
        await trx
          .insertInto('exam_requests')
          .values({
            id,
            number,
            consultation_id: detail.id,
            message_id: message.id,
            expert_user_id: expertId,
            client_id: input.clientId,
            exam_type: input.examType,
            exam_name: examName,
            body_part: card.bodyPart,
            contrast: input.contrast,
            urgency: input.urgency,
            reason: input.reason.trim(),
            patient_json: JSON.stringify({
              nameMasked: person.nameMasked,
              sexLabel: SEX_LABELS[person.sex],
              age: person.age,
            }),
            expert_json: JSON.stringify({
              name: detail.expert.name,
              titleLabel: detail.expert.titleLabel,
              hospitalName: detail.expert.hospitalName,
              department: detail.expert.department,
            }),
            created_at: message.createdAt,
          })
          .execute()
      },
    )
  for (let attempt = 1; ; attempt++) {
    try {
      await send(requestNumber(now))
      break
    } catch (error) {
      if (attempt >= NUMBER_ATTEMPTS || !isUniqueViolation(error)) throw error
    }
  }
  const written = await byClientId(ctx.db, detail.id, input.clientId)
  // The clientId named another kind of message of this expert: nothing was written.
  if (!written) throw badRequest(EXAM_REQUEST_MESSAGES.clientIdTaken)
  return describe(written, 'expert')
}

/** The 检查申请单, to the consultation's patient and its expert; 404 to anyone else. */
export async function readExamRequest(
  ctx: ConsultContext,
  userId: string,
  examRequestId: string,
): Promise<ExamRequest> {
  const row = await ctx.db
    .selectFrom('exam_requests')
    .selectAll()
    .where('id', '=', examRequestId)
    .executeTakeFirst()
  if (!row) throw notFound(EXAM_REQUEST_MESSAGES.notFound)
  const detail = await detailFor(ctx, userId, row.consultation_id)
  return describe(row, detail.role)
}
