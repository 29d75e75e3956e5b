import { randomUUID } from 'node:crypto'
import type { z } from 'zod/mini'
import {
  COMPLAINT_DAYS,
  CONSULT_AUTO_COMPLETE_HOURS,
  CONSULT_GRANT_DAYS_AFTER,
  CONSULT_MESSAGES,
  type OperatorConsultSchema,
  type RATING_TAGS,
} from '@contract/main/consultations'
import { CONSENT_TEXT_VERSIONS } from '@contract/main/consents'
import type { DB } from '../../db'
import { badRequest, conflict, notFound } from '../../http/errors'
import { CONSENT_CHANNELS, noteWithdrawn, writeConsent } from '../consents'
import { recordOperatorAction } from '../operator'
import { endConsultationGrant } from '../sharing'
import { afterCommit, type ConsultContext } from './context'
import { settleCompletion, settleIncome, startRefund } from './money'
import {
  consultationFor,
  type Consultation,
  DAY_MS,
  type Effects,
  lockConsultation,
  noEffects,
  tell,
  selectCards,
  toCard,
  transition,
} from './model'
import { expireUnpaid } from './orders'
import { setTimer } from './timers'
import { commitTransition, readDetail, runTransition } from './transition'

/*
 * After payment: 接诊 / 不接诊, completion (采纳 or the timer), expiry (the timers), settlement of the
 * expert's income after the 投诉 window, 投诉 and the operator's decision, 评价, 公开, 删除.
 * Every change is one conditional update (transition) in a transaction with its money, so thirty
 * parallel accept/decline/cancel calls leave exactly one outcome.
 */

async function hasOpenComplaint(trx: DB, consultationId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('consultation_complaints')
    .select('state')
    .where('consultation_id', '=', consultationId)
    .where('state', '=', 'open')
    .executeTakeFirst()
  return row !== undefined
}

type OperatorConsult = z.infer<typeof OperatorConsultSchema>

const grantEnd = (now: Date) => new Date(now.getTime() + CONSULT_GRANT_DAYS_AFTER * DAY_MS)

export async function acceptConsultation(
  ctx: ConsultContext,
  expertId: string,
  consultationId: string,
) {
  const { row } = await consultationFor(ctx.db, expertId, consultationId, 'expert')
  const reader = { userId: expertId, consultationId, side: 'expert' as const }
  return runTransition(
    ctx,
    reader,
    async (trx, effects, now) => {
      const done = await transition(
        trx,
        effects,
        {
          id: row.id,
          from: ['waiting-accept'],
          to: 'in-progress',
          set: { accepted_at: now.toISOString() },
          actor: 'expert',
          line: '专家已接诊',
        },
        now,
      )
      if (!done) return undefined
      await tell(
        trx,
        effects,
        done.patient_user_id,
        done.id,
        '专家已接诊',
        `您的咨询「${done.chief_complaint.slice(0, 30)}」已被接诊，专家将在承诺时间内回复`,
        now,
      )
      // The answer deadline was set at payment; its timer replaces the accept timer now.
      await setTimer(trx, done.id, done.answer_by, now)
      return done
    },
    CONSULT_MESSAGES.cannotAccept,
  )
}

/** Ends a paid consultation that will not be answered: full refund, grant to its short tail. */
async function endWithRefund(
  trx: DB,
  effects: Effects,
  row: Consultation,
  input: {
    to: 'declined' | 'expired'
    actor: 'expert' | 'system'
    note: string
    line: string
    reason: string
    set?: Partial<Consultation>
  },
  now: Date,
): Promise<Consultation | undefined> {
  const moved = await transition(
    trx,
    effects,
    {
      id: row.id,
      from: [row.state as never],
      to: input.to,
      set: { ...input.set, ended_at: now.toISOString() },
      actor: input.actor,
      note: input.note,
      line: input.line,
    },
    now,
  )
  if (!moved) return undefined
  await startRefund(trx, effects, moved, Number(moved.price_fen), input.reason, now)
  await endConsultationGrant(trx, moved.grant_id, grantEnd(now))
  await setTimer(trx, moved.id, null, now)
  return moved
}

export async function declineConsultation(
  ctx: ConsultContext,
  expertId: string,
  consultationId: string,
  reason: string,
) {
  const { row } = await consultationFor(ctx.db, expertId, consultationId, 'expert')
  const reader = { userId: expertId, consultationId, side: 'expert' as const }
  return runTransition(
    ctx,
    reader,
    async (trx, effects, now) => {
      const locked = await lockConsultation(trx, row.id)
      if (!locked || locked.state !== 'waiting-accept') return undefined
      const done = await endWithRefund(
        trx,
        effects,
        locked,
        {
          to: 'declined',
          actor: 'expert',
          note: reason.trim(),
          line: `专家未接诊：${reason.trim()}。费用将全额退回`,
          reason: '专家未接诊',
          set: { decline_reason: reason.trim() },
        },
        now,
      )
      if (done)
        await tell(
          trx,
          effects,
          done.patient_user_id,
          done.id,
          '专家未接诊，已全额退款',
          `原因：${reason.trim()}。费用将原路退回，一般 1–3 个工作日到账`,
          now,
        )
      return done
    },
    CONSULT_MESSAGES.cannotDecline,
  )
}

/** Completion (采纳, or the auto-complete timer): escrow to the expert's pending income and revenue. */
async function complete(
  trx: DB,
  effects: Effects,
  row: Consultation,
  actor: 'patient' | 'system',
  now: Date,
  /** The history's words when it is neither 采纳 nor the timer (a 投诉 decided). */
  systemNote = `回复后 ${CONSULT_AUTO_COMPLETE_HOURS} 小时自动完成`,
) {
  const settleAt = new Date(now.getTime() + COMPLAINT_DAYS * DAY_MS).toISOString()
  const moved = await transition(
    trx,
    effects,
    {
      id: row.id,
      from: ['answered'],
      to: 'completed',
      set: {
        completed_at: now.toISOString(),
        ended_at: now.toISOString(),
        settle_at: settleAt,
        ...(actor === 'patient' ? { adopted_at: now.toISOString() } : {}),
      },
      actor,
      note: actor === 'patient' ? '患者采纳了回复' : systemNote,
      line: actor === 'patient' ? '患者已采纳回复，咨询完成' : '咨询已自动完成',
    },
    now,
  )
  if (!moved) return undefined
  await settleCompletion(trx, moved, now)
  await endConsultationGrant(trx, moved.grant_id, grantEnd(now))
  await setTimer(trx, moved.id, settleAt, now)
  await tell(
    trx,
    effects,
    moved.expert_user_id,
    moved.id,
    actor === 'patient' ? '患者采纳了您的回复' : '咨询已完成',
    `「${moved.chief_complaint.slice(0, 30)}」已完成，收入将在 ${COMPLAINT_DAYS} 天后结算`,
    now,
    'patientQuestions',
  )
  return moved
}

export async function adoptConsultation(
  ctx: ConsultContext,
  userId: string,
  consultationId: string,
) {
  const { row } = await consultationFor(ctx.db, userId, consultationId, 'patient')
  if (row.state === 'in-progress' || row.state === 'waiting-accept')
    throw conflict(CONSULT_MESSAGES.notAnswered)
  return runTransition(
    ctx,
    { userId, consultationId, side: 'patient' },
    async (trx, effects, now) => {
      if (await hasOpenComplaint(trx, row.id)) return undefined
      return complete(trx, effects, row, 'patient', now)
    },
    CONSULT_MESSAGES.cannotAdopt,
  )
}

/**
 * A consultation's timer fired: apply whatever deadline of its CURRENT state has passed (a stale
 * timer, or one that fires twice, finds nothing to do). A 投诉 waiting for a decision holds every
 * timer but the pay timer.
 */
export async function runTimer(ctx: ConsultContext, consultationId: string): Promise<string> {
  const now = ctx.now()
  const at = now.toISOString()
  const row = await ctx.db
    .selectFrom('consultations')
    .selectAll()
    .where('id', '=', consultationId)
    .executeTakeFirst()
  if (!row) return 'gone'
  if (row.state === 'pending-payment') {
    if (row.pay_by > at) return 'not due'
    const minutes = Math.round((Date.parse(row.pay_by) - Date.parse(row.created_at)) / 60000)
    return expireUnpaid(ctx, row, `${minutes} 分钟内未支付，订单已关闭`)
  }
  const effects = noEffects()
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const locked = await lockConsultation(trx, consultationId)
    if (!locked) return 'gone'
    if (await hasOpenComplaint(trx, locked.id)) return 'held by complaint'
    if (locked.state === 'waiting-accept' && locked.accept_by && locked.accept_by <= at) {
      const done = await endWithRefund(
        trx,
        effects,
        locked,
        {
          to: 'expired',
          actor: 'system',
          note: '专家未在时限内接诊',
          line: '专家未在 24 小时内接诊，费用将全额退回',
          reason: '专家超时未接诊',
        },
        now,
      )
      if (done)
        await tell(
          trx,
          effects,
          done.patient_user_id,
          done.id,
          '专家未及时接诊，已全额退款',
          '费用将原路退回，您可以选择其他专家重新咨询',
          now,
        )
      return 'expired'
    }
    if (locked.state === 'in-progress' && locked.answer_by && locked.answer_by <= at) {
      const done = await endWithRefund(
        trx,
        effects,
        locked,
        {
          to: 'expired',
          actor: 'system',
          note: '专家未在承诺时间内回复',
          line: '专家未在承诺时间内回复，费用将全额退回',
          reason: '专家超时未回复',
        },
        now,
      )
      if (done) {
        await tell(
          trx,
          effects,
          done.patient_user_id,
          done.id,
          '专家未按时回复，已全额退款',
          '费用将原路退回，您可以选择其他专家重新咨询',
          now,
        )
        await tell(
          trx,
          effects,
          done.expert_user_id,
          done.id,
          '咨询已超时',
          `「${done.chief_complaint.slice(0, 30)}」未在承诺时间内回复，已退款给患者`,
          now,
          'patientQuestions',
        )
      }
      return 'expired'
    }
    if (locked.state === 'answered' && locked.complete_at && locked.complete_at <= at) {
      return (await complete(trx, effects, locked, 'system', now)) ? 'completed' : 'raced'
    }
    if (
      locked.state === 'completed' &&
      locked.settle_at &&
      locked.settle_at <= at &&
      !locked.settled_at
    ) {
      await settleIncome(trx, locked, now)
      await trx
        .updateTable('consultations')
        .set({ settled_at: at, updated_at: at })
        .where('id', '=', locked.id)
        .execute()
      await setTimer(trx, locked.id, null, now)
      return 'settled'
    }
    return 'not due'
  })
  await afterCommit(ctx, effects)
  return outcome
}

export async function complain(
  ctx: ConsultContext,
  userId: string,
  consultationId: string,
  text: string,
) {
  const { row } = await consultationFor(ctx.db, userId, consultationId, 'patient')
  const reader = { userId, consultationId, side: 'patient' as const }
  return runTransition(
    ctx,
    reader,
    async (trx, effects, now) => {
      const locked = await lockConsultation(trx, row.id)
      if (!locked) return undefined
      const exists = await trx
        .selectFrom('consultation_complaints')
        .select('state')
        .where('consultation_id', '=', row.id)
        .executeTakeFirst()
      if (exists) throw conflict(CONSULT_MESSAGES.complaintExists)
      if (!['in-progress', 'answered', 'completed'].includes(locked.state))
        throw conflict(CONSULT_MESSAGES.complaintWindow)
      if (locked.ended_at && now.getTime() - Date.parse(locked.ended_at) >= COMPLAINT_DAYS * DAY_MS)
        throw conflict(CONSULT_MESSAGES.complaintWindow)
      if (locked.settled_at) throw conflict(CONSULT_MESSAGES.complaintWindow)
      await trx
        .insertInto('consultation_complaints')
        .values({
          consultation_id: row.id,
          user_id: userId,
          text: text.trim(),
          state: 'open',
          refund_fen: null,
          decision_note: null,
          decided_by: null,
          created_at: now.toISOString(),
          decided_at: null,
        })
        .execute()
      await trx
        .insertInto('consultation_events')
        .values({
          id: randomUUID(),
          consultation_id: row.id,
          state: locked.state,
          actor: 'patient',
          note: '患者提交了投诉，费用已冻结，等待平台处理',
          at: now.toISOString(),
        })
        .execute()
      await tell(
        trx,
        effects,
        locked.expert_user_id,
        row.id,
        '患者提交了投诉',
        `「${locked.chief_complaint.slice(0, 30)}」的费用已冻结，平台将尽快处理`,
        now,
        'patientQuestions',
      )
      effects.signals.push({
        userIds: [locked.patient_user_id, locked.expert_user_id],
        signal: { kind: 'consultation.changed', consultationId: row.id },
      })
      return true
    },
    CONSULT_MESSAGES.complaintWindow,
  )
}

/**
 * One consultation as the operators' list shows it (OperatorConsult): the card, the 投诉, what was
 * paid and refunded. Read by id, for the answer to an operator's decision.
 */
export async function describeForOperator(
  ctx: ConsultContext,
  consultationId: string,
): Promise<OperatorConsult> {
  const row = await selectCards(ctx.db)
    .select('c.paid_at')
    .where('c.id', '=', consultationId)
    .executeTakeFirst()
  if (!row) throw notFound(CONSULT_MESSAGES.notFound)
  const card = toCard(row, 'patient', ctx.cipher, ctx.now())
  const [complaint, refunded] = await Promise.all([
    ctx.db
      .selectFrom('consultation_complaints')
      .select(['text', 'created_at', 'state'])
      .where('consultation_id', '=', consultationId)
      .executeTakeFirst(),
    ctx.db
      .selectFrom('consultation_refunds')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_fen'), eb.lit(0)).as('total'))
      .where('consultation_id', '=', consultationId)
      .executeTakeFirst(),
  ])
  return {
    ...card,
    complaint: complaint
      ? {
          text: complaint.text,
          at: complaint.created_at,
          state: complaint.state as 'open' | 'decided',
        }
      : null,
    paidFen: row.paid_at ? Number(row.price_fen) : 0,
    refundedFen: Number(refunded?.total ?? 0),
  }
}

/**
 * An operator settles a 投诉: refund `refundFen` (0..paid − refunded), release the rest. Before
 * completion the consultation completes with what is left; after, the refund comes back from the
 * expert's pending income and the platform's revenue in proportion. Audited; once.
 */
export async function decideComplaint(
  ctx: ConsultContext,
  operatorId: string,
  consultationId: string,
  refundFen: number,
  note: string,
) {
  await commitTransition(
    ctx,
    async (trx, effects, now) => {
      const locked = await lockConsultation(trx, consultationId)
      if (!locked) throw notFound(CONSULT_MESSAGES.notFound)
      const decided = await trx
        .updateTable('consultation_complaints')
        .set({
          state: 'decided',
          refund_fen: refundFen,
          decision_note: note.trim(),
          decided_by: operatorId,
          decided_at: now.toISOString(),
        })
        .where('consultation_id', '=', consultationId)
        .where('state', '=', 'open')
        .executeTakeFirst()
      if (Number(decided.numUpdatedRows) !== 1) return false
      const refunded = await trx
        .selectFrom('consultation_refunds')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_fen'), eb.lit(0)).as('total'))
        .where('consultation_id', '=', consultationId)
        .executeTakeFirst()
      if (refundFen > Number(locked.price_fen) - Number(refunded?.total ?? 0))
        throw badRequest(CONSULT_MESSAGES.refundTooMuch)
      if (refundFen > 0)
        await startRefund(trx, effects, locked, refundFen, `投诉处理：${note.trim()}`, now)
      const line =
        refundFen > 0
          ? `平台已处理投诉：退款 ¥${(refundFen / 100).toFixed(2)}。${note.trim()}`
          : `平台已处理投诉：费用结算给专家。${note.trim()}`
      if (locked.state === 'in-progress' || locked.state === 'answered') {
        // Before completion: the decision ends it; what escrow still holds is settled.
        await transition(
          trx,
          effects,
          {
            id: locked.id,
            from: [locked.state as never],
            to: 'answered',
            set: {},
            actor: 'operator',
            note: line,
          },
          now,
        )
        const row = (await lockConsultation(trx, consultationId))!
        await complete(trx, effects, row, 'system', now, '投诉处理完毕，咨询完成')
      } else {
        await trx
          .insertInto('consultation_events')
          .values({
            id: randomUUID(),
            consultation_id: locked.id,
            state: locked.state,
            actor: 'operator',
            note: line,
            at: now.toISOString(),
          })
          .execute()
        // The settle timer may have fired while the 投诉 held it: set it again (now, if overdue).
        if (locked.settle_at && !locked.settled_at)
          await setTimer(
            trx,
            locked.id,
            locked.settle_at < now.toISOString() ? now.toISOString() : locked.settle_at,
            now,
          )
      }
      await tell(trx, effects, locked.patient_user_id, locked.id, '您的投诉已处理', line, now)
      await tell(
        trx,
        effects,
        locked.expert_user_id,
        locked.id,
        '投诉已处理',
        line,
        now,
        'patientQuestions',
      )
      await recordOperatorAction(
        trx,
        {
          operatorId,
          action: 'consult-complaint',
          targetId: consultationId,
          detail: `退款 ${refundFen} 分：${note.trim()}`,
        },
        now,
      )
      effects.signals.push({
        userIds: [locked.patient_user_id, locked.expert_user_id],
        signal: { kind: 'consultation.changed', consultationId },
      })
      return true
    },
    CONSULT_MESSAGES.complaintDecided,
  )
  return describeForOperator(ctx, consultationId)
}

export async function rate(
  ctx: ConsultContext,
  userId: string,
  consultationId: string,
  input: { stars: number; tags: (typeof RATING_TAGS)[number][]; text: string },
) {
  const { row } = await consultationFor(ctx.db, userId, consultationId, 'patient')
  if (row.state !== 'completed' || !row.answered_at) throw conflict(CONSULT_MESSAGES.cannotRate)
  const at = ctx.now().toISOString()
  const updated = await ctx.db
    .updateTable('consultations')
    .set({
      rating_stars: input.stars,
      rating_tags: JSON.stringify([...new Set(input.tags)]),
      rating_text: input.text.trim(),
      rated_at: at,
      updated_at: at,
    })
    .where('id', '=', row.id)
    .where('rated_at', 'is', null)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) !== 1) throw conflict(CONSULT_MESSAGES.rated)
  return readDetail(ctx, userId, consultationId, 'patient')
}

export async function publish(
  ctx: ConsultContext,
  userId: string,
  consultationId: string,
  visible: boolean,
) {
  const { row } = await consultationFor(ctx.db, userId, consultationId, 'patient')
  if (visible && (row.state !== 'completed' || !row.answered_at))
    throw conflict(CONSULT_MESSAGES.cannotPublish)
  const now = ctx.now()
  const at = now.toISOString()
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('consultations')
      .set({ published_at: visible ? at : null, updated_at: at })
      .where('id', '=', row.id)
      .execute()
    // The consent ledger: publishing is a consent of its own (PIPL art. 29), taking back its end.
    if (visible && !row.published_at) {
      await writeConsent(
        trx,
        {
          userId,
          subjectId: row.person_user_id,
          purpose: 'public-qa',
          version: CONSENT_TEXT_VERSIONS['public-qa'],
          targetId: row.id,
          channel: CONSENT_CHANNELS.publish,
          detail: '匿名公开会诊问答',
        },
        now,
      )
    } else if (!visible && row.published_at) {
      await noteWithdrawn(
        trx,
        { userId, purpose: 'public-qa', targetId: row.id, channel: CONSENT_CHANNELS.unpublish },
        now,
      )
    }
  })
  return readDetail(ctx, userId, consultationId, 'patient')
}

/** 删除: gone from the asker's list and from public view; the record stays as the rules keep it. */
export async function removeFromList(ctx: ConsultContext, userId: string, consultationId: string) {
  const { row } = await consultationFor(ctx.db, userId, consultationId, 'patient')
  if (!['completed', 'cancelled', 'declined', 'expired'].includes(row.state))
    throw conflict('咨询进行中，不能删除')
  const now = ctx.now()
  const at = now.toISOString()
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('consultations')
      .set({ deleted_by_patient_at: at, published_at: null, updated_at: at })
      .where('id', '=', row.id)
      .execute()
    if (row.published_at) {
      await noteWithdrawn(
        trx,
        {
          userId,
          purpose: 'public-qa',
          targetId: row.id,
          channel: CONSENT_CHANNELS.removeQuestion,
        },
        now,
      )
    }
  })
  return { ok: true as const }
}
