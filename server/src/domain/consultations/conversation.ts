import { randomUUID } from 'node:crypto'
import {
  CONSULT_AUTO_COMPLETE_HOURS,
  CONSULT_MESSAGES,
  type ConsultExamRequestCard,
  type ConsultMessage,
} from '@contract/main/consultations'
import { GRANT_MESSAGES } from '@contract/main/grants'
import type { DB } from '../../db'
import { badRequest, conflict, notFound } from '../../http/errors'
import { cleanPhoto } from '../../images'
import type { ObjectStore } from '../../storage'
import { proveIdentity } from '../profile'
import { describeConsultGrant } from '../sharing'
import { afterCommit, type ConsultContext } from './context'
import {
  consultationFor,
  HOUR_MS,
  lockConsultation,
  nextSeq,
  noEffects,
  tell,
  toMessage,
  transition,
} from './model'
import { setTimer } from './timers'

/*
 * The conversation: messages read by cursor (seq increases per consultation, so a reconnect asks
 * for what came after the last it has and nothing shows twice), sent with a client id (a retried
 * send is one message), read marks, and the expert's signed answer.
 */

export const CONSULT_PICTURE_WORDS = {
  type: '图片只支持 JPG 或 PNG',
  'too-large': '单张图片不能超过 10 MB，请压缩后重试',
  'too-many-pixels': '图片尺寸过大，请缩小后重试',
  unreadable: '图片无法识别，请换一张重试',
  'too-small': '图片太小，看不清内容，请重新拍摄',
} as const

export async function uploadPicture(
  db: DB,
  store: ObjectStore,
  userId: string,
  bytes: Buffer,
  now: Date,
) {
  const clean = await cleanPhoto(bytes, CONSULT_PICTURE_WORDS)
  const id = randomUUID()
  const key = `consultations/${userId}/${id}.jpg`
  await store.put(key, clean.bytes, { contentType: 'image/jpeg' })
  await db
    .insertInto('consultation_pictures')
    .values({
      id,
      owner_user_id: userId,
      consultation_id: null,
      object_key: key,
      content_type: 'image/jpeg',
      width: clean.width,
      height: clean.height,
      bytes: clean.bytes.length,
      created_at: now.toISOString(),
    })
    .execute()
  return { id, url: `/main/consultations/pictures/${id}`, width: clean.width, height: clean.height }
}

/** A picture for its owner, or for either side of the consultation it belongs to (404 otherwise). */
export async function readPicture(db: DB, userId: string, pictureId: string): Promise<string> {
  const row = await db
    .selectFrom('consultation_pictures as p')
    .leftJoin('consultations as c', 'c.id', 'p.consultation_id')
    .select(['p.object_key', 'p.owner_user_id', 'c.patient_user_id', 'c.expert_user_id'])
    .where('p.id', '=', pictureId)
    .executeTakeFirst()
  if (!row || ![row.owner_user_id, row.patient_user_id, row.expert_user_id].includes(userId)) {
    throw notFound(CONSULT_MESSAGES.pictureNotFound)
  }
  return row.object_key
}

export async function listMessages(
  ctx: ConsultContext,
  userId: string,
  consultationId: string,
  after: number,
  limit: number,
) {
  const { row, side } = await consultationFor(ctx.db, userId, consultationId)
  const rows = await ctx.db
    .selectFrom('consultation_messages')
    .selectAll()
    .where('consultation_id', '=', row.id)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit + 1)
    .execute()
  const more = rows.length > limit
  const page = rows.slice(0, limit)
  const grant = await describeConsultGrant(ctx.db, ctx.cipher, row.grant_id, ctx.now())
  const records = new Map(grant.records.map((record) => [`${record.kind}:${record.id}`, record]))
  const otherRead = Number(side === 'patient' ? row.expert_read_seq : row.patient_read_seq)
  const items = page.map((message) =>
    toMessage(
      message,
      userId,
      otherRead,
      records,
      message.record_kind ? `${message.record_kind}:${message.record_id}` : null,
    ),
  )
  return { items, last: items.at(-1)?.seq ?? after, more }
}

async function existingByClientId(
  db: DB,
  consultationId: string,
  userId: string,
  clientId: string,
) {
  return db
    .selectFrom('consultation_messages')
    .selectAll()
    .where('consultation_id', '=', consultationId)
    .where('sender_user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()
}

/** One message as its reader gets it: the page of exactly that seq (not the whole conversation). */
async function asMessage(
  ctx: ConsultContext,
  userId: string,
  consultationId: string,
  message: { id: string; seq: number | string },
): Promise<ConsultMessage> {
  const found = await listMessages(ctx, userId, consultationId, Number(message.seq) - 1, 1)
  return found.items.find((item) => item.id === message.id)!
}

export async function sendMessage(
  ctx: ConsultContext,
  userId: string,
  input: {
    consultationId: string
    clientId: string
    text?: string | undefined
    pictureId?: string | undefined
    record?: { kind: 'exam' | 'report'; id: string } | undefined
  },
) {
  const { row, side } = await consultationFor(ctx.db, userId, input.consultationId)
  const again = await existingByClientId(ctx.db, row.id, userId, input.clientId)
  if (again) return asMessage(ctx, userId, row.id, again)
  const text = input.text?.trim() ?? ''
  const parts = [text !== '', input.pictureId !== undefined, input.record !== undefined].filter(
    Boolean,
  ).length
  if (parts !== 1) throw badRequest(CONSULT_MESSAGES.messageRequired)
  const now = ctx.now()
  if (input.pictureId) {
    const picture = await ctx.db
      .selectFrom('consultation_pictures')
      .select(['owner_user_id', 'consultation_id'])
      .where('id', '=', input.pictureId)
      .executeTakeFirst()
    if (
      !picture ||
      picture.owner_user_id !== userId ||
      (picture.consultation_id !== null && picture.consultation_id !== row.id)
    ) {
      throw badRequest(CONSULT_MESSAGES.pictureNotFound)
    }
  }
  if (input.record) {
    const grant = await describeConsultGrant(ctx.db, ctx.cipher, row.grant_id, now)
    if (grant.status !== 'active') throw conflict(GRANT_MESSAGES.ended)
    if (
      !grant.records.some(
        (record) => record.kind === input.record!.kind && record.id === input.record!.id,
      )
    ) {
      throw badRequest('只能发送本次咨询已授权的检查或报告')
    }
  }
  const effects = noEffects()
  const id = randomUUID()
  await ctx.db
    .transaction()
    .execute(async (trx) => {
      const locked = (await lockConsultation(trx, row.id))!
      const open = await trx
        .selectFrom('consultation_complaints')
        .select('state')
        .where('consultation_id', '=', row.id)
        .where('state', '=', 'open')
        .executeTakeFirst()
      if (open) throw conflict(CONSULT_MESSAGES.conversationClosed)
      const state = locked.state
      let followup = false
      if (side === 'patient') {
        if (state === 'answered') {
          if (locked.answered_at && now.getTime() - Date.parse(locked.answered_at) > 48 * HOUR_MS)
            throw conflict(CONSULT_MESSAGES.conversationClosed)
          if (Number(locked.followups_used) >= Number(locked.followup_limit))
            throw conflict(CONSULT_MESSAGES.followupsUsed)
          followup = true
        } else if (state !== 'waiting-accept' && state !== 'in-progress') {
          throw conflict(CONSULT_MESSAGES.conversationClosed)
        }
      } else if (state !== 'in-progress' && state !== 'answered') {
        throw conflict(CONSULT_MESSAGES.conversationClosed)
      }
      const seq = await nextSeq(trx, row.id)
      await trx
        .insertInto('consultation_messages')
        .values({
          id,
          consultation_id: row.id,
          seq,
          sender: side,
          sender_user_id: userId,
          client_id: input.clientId,
          kind: input.pictureId ? 'picture' : input.record ? 'record' : 'text',
          text,
          picture_id: input.pictureId ?? null,
          record_kind: input.record?.kind ?? null,
          record_id: input.record?.id ?? null,
          answer_json: null,
          signed_at: null,
          created_at: now.toISOString(),
        })
        .execute()
      if (input.pictureId)
        await trx
          .updateTable('consultation_pictures')
          .set({ consultation_id: row.id })
          .where('id', '=', input.pictureId)
          .execute()
      // The sender has read everything up to their own message.
      await trx
        .updateTable('consultations')
        .set(
          side === 'patient'
            ? {
                patient_read_seq: seq,
                ...(followup ? { followups_used: Number(locked.followups_used) + 1 } : {}),
              }
            : { expert_read_seq: seq },
        )
        .where('id', '=', row.id)
        .execute()
      effects.signals.push({
        userIds: [row.patient_user_id, row.expert_user_id],
        signal: { kind: 'consultation.message', consultationId: row.id, cursor: seq },
      })
    })
    .catch(async (error: unknown) => {
      // Two sends with one client id at once: the unique key let one in; answer that one.
      const raced = await existingByClientId(ctx.db, row.id, userId, input.clientId)
      if (raced) return
      throw error
    })
  await afterCommit(ctx, effects)
  const sent = await existingByClientId(ctx.db, row.id, userId, input.clientId)
  return asMessage(ctx, userId, row.id, sent!)
}

export async function markRead(
  ctx: ConsultContext,
  userId: string,
  consultationId: string,
  seq: number,
) {
  const { row, side } = await consultationFor(ctx.db, userId, consultationId)
  const column = side === 'patient' ? 'patient_read_seq' : 'expert_read_seq'
  const upTo = Math.min(seq, Number(row.message_seq))
  await ctx.db
    .updateTable('consultations')
    .set({ [column]: upTo })
    .where('id', '=', row.id)
    .where(column, '<', upTo)
    .execute()
  ctx.publish([side === 'patient' ? row.expert_user_id : row.patient_user_id], {
    kind: 'consultation.changed',
    consultationId: row.id,
  })
  return { ok: true as const }
}

/**
 * The expert's answer, signed by re-entering the password or an SMS code: the first moves the
 * consultation to 已回复 (auto-complete after CONSULT_AUTO_COMPLETE_HOURS); later ones are addenda.
 * A signed answer is never edited.
 */
export async function answer(
  ctx: ConsultContext,
  expertId: string,
  input: {
    consultationId: string
    clientId: string
    findings?: string | undefined
    opinion: string
    advice?: string | undefined
    password?: string | undefined
    smsCode?: string | undefined
  },
  ip?: string,
  /**
   * A structured opinion signed with this answer (domain/opinions): its id is kept in the answer's
   * fields (the conversation links to it) and `write` stores it in the answer's own transaction, so
   * the answer and the opinion exist together or not at all.
   */
  opinion?: {
    id: string
    /** `first`: this is the consultation's answer (not an addendum). Throwing rolls it all back. */
    write: (trx: DB, message: { id: string; signedAt: string; first: boolean }) => Promise<void>
  },
) {
  const { row } = await consultationFor(ctx.db, expertId, input.consultationId, 'expert')
  const again = await existingByClientId(ctx.db, row.id, expertId, input.clientId)
  if (again) return asMessage(ctx, expertId, row.id, again)
  // The first answer of an 影像会诊 has all three parts; an addendum (补充说明) is one text.
  if (
    row.service === 'imaging' &&
    row.state === 'in-progress' &&
    (!input.findings?.trim() || !input.advice?.trim())
  )
    throw badRequest(CONSULT_MESSAGES.answerRequired)
  if (row.state !== 'in-progress' && row.state !== 'answered')
    throw conflict(CONSULT_MESSAGES.notAnswering)
  if (!input.password && !input.smsCode) throw badRequest('请输入登录密码或短信验证码以签署')
  const user = await ctx.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', expertId)
    .executeTakeFirstOrThrow()
  const now = ctx.now()
  await proveIdentity(ctx.db, user, { password: input.password, oldCode: input.smsCode }, now, ip)
  const effects = noEffects()
  const answerJson = JSON.stringify({
    findings: input.findings?.trim() ?? '',
    opinion: input.opinion.trim(),
    advice: input.advice?.trim() ?? '',
    ...(opinion ? { reportId: opinion.id } : {}),
  })
  await ctx.db.transaction().execute(async (trx) => {
    const locked = (await lockConsultation(trx, row.id))!
    const open = await trx
      .selectFrom('consultation_complaints')
      .select('state')
      .where('consultation_id', '=', row.id)
      .where('state', '=', 'open')
      .executeTakeFirst()
    if (open || (locked.state !== 'in-progress' && locked.state !== 'answered'))
      throw conflict(CONSULT_MESSAGES.notAnswering)
    const first = locked.state === 'in-progress'
    const seq = await nextSeq(trx, row.id)
    const messageId = randomUUID()
    await trx
      .insertInto('consultation_messages')
      .values({
        id: messageId,
        consultation_id: row.id,
        seq,
        sender: 'expert',
        sender_user_id: expertId,
        client_id: input.clientId,
        kind: first ? 'answer' : 'addendum',
        text: input.opinion.trim(),
        picture_id: null,
        record_kind: null,
        record_id: null,
        answer_json: answerJson,
        signed_at: now.toISOString(),
        created_at: now.toISOString(),
      })
      .execute()
    await trx
      .updateTable('consultations')
      .set({ expert_read_seq: seq })
      .where('id', '=', row.id)
      .execute()
    if (opinion) await opinion.write(trx, { id: messageId, signedAt: now.toISOString(), first })
    effects.signals.push({
      userIds: [row.patient_user_id, row.expert_user_id],
      signal: { kind: 'consultation.message', consultationId: row.id, cursor: seq },
    })
    if (first) {
      const completeAt = new Date(
        now.getTime() + CONSULT_AUTO_COMPLETE_HOURS * HOUR_MS,
      ).toISOString()
      await transition(
        trx,
        effects,
        {
          id: row.id,
          from: ['in-progress'],
          to: 'answered',
          set: { answered_at: now.toISOString(), complete_at: completeAt },
          actor: 'expert',
          note: null,
        },
        now,
      )
      await setTimer(trx, row.id, completeAt, now)
      await tell(
        trx,
        effects,
        row.patient_user_id,
        row.id,
        '专家已回复',
        `您的咨询「${row.chief_complaint.slice(0, 30)}」有了回复，请查看。满意请点击采纳`,
        now,
      )
    }
  })
  await afterCommit(ctx, effects)
  const sent = await existingByClientId(ctx.db, row.id, expertId, input.clientId)
  return asMessage(ctx, expertId, row.id, sent!)
}

/**
 * The expert's 检查建议 as a conversation message (kind 'exam-request', its card in
 * `exam_request_json`), while the consultation is 进行中 or 已回复. `write` stores the request
 * (domain/exam-requests) in the message's own transaction: both exist or neither. A retried
 * clientId answers the message already sent and writes nothing.
 */
export async function sendExamRequestMessage(
  ctx: ConsultContext,
  expertId: string,
  input: {
    consultationId: string
    clientId: string
    text: string
    card: ConsultExamRequestCard
    /** The refusal when the consultation is not being answered. */
    refusal: string
  },
  write: (trx: DB, message: { id: string; createdAt: string }) => Promise<void>,
): Promise<ConsultMessage> {
  const { row } = await consultationFor(ctx.db, expertId, input.consultationId, 'expert')
  const again = await existingByClientId(ctx.db, row.id, expertId, input.clientId)
  if (again) return asMessage(ctx, expertId, row.id, again)
  const now = ctx.now()
  const effects = noEffects()
  await ctx.db
    .transaction()
    .execute(async (trx) => {
      const locked = (await lockConsultation(trx, row.id))!
      const open = await trx
        .selectFrom('consultation_complaints')
        .select('state')
        .where('consultation_id', '=', row.id)
        .where('state', '=', 'open')
        .executeTakeFirst()
      if (open || (locked.state !== 'in-progress' && locked.state !== 'answered'))
        throw conflict(input.refusal)
      const seq = await nextSeq(trx, row.id)
      const id = randomUUID()
      await trx
        .insertInto('consultation_messages')
        .values({
          id,
          consultation_id: row.id,
          seq,
          sender: 'expert',
          sender_user_id: expertId,
          client_id: input.clientId,
          kind: 'exam-request',
          text: input.text,
          picture_id: null,
          record_kind: null,
          record_id: null,
          answer_json: null,
          exam_request_json: JSON.stringify(input.card),
          signed_at: null,
          created_at: now.toISOString(),
        })
        .execute()
      await trx
        .updateTable('consultations')
        .set({ expert_read_seq: seq })
        .where('id', '=', row.id)
        .execute()
      await write(trx, { id, createdAt: now.toISOString() })
      effects.signals.push({
        userIds: [row.patient_user_id, row.expert_user_id],
        signal: { kind: 'consultation.message', consultationId: row.id, cursor: seq },
      })
    })
    .catch(async (error: unknown) => {
      const raced = await existingByClientId(ctx.db, row.id, expertId, input.clientId)
      if (raced) return
      throw error
    })
  await afterCommit(ctx, effects)
  const sent = await existingByClientId(ctx.db, row.id, expertId, input.clientId)
  return asMessage(ctx, expertId, row.id, sent!)
}
