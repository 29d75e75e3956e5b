import { randomBytes, randomUUID } from 'node:crypto'
import {
  CONSULT_ACCEPT_HOURS,
  CONSULT_CONSENT_VERSION,
  CONSULT_GRANT_DAYS_AFTER,
  CONSULT_MESSAGES,
  CONSULT_NOTICE,
  CONSULT_PAY_MINUTES,
  type ConsultApplicationInput,
  type ConsultDetail,
  consultAnswerHours,
  consultConsentText,
  CONSULT_AUTO_COMPLETE_HOURS,
  splitPrice,
} from '@contract/main/consultations'
import { EXPERT_SERVICE_RULES, type ConsultService } from '@contract/main/expert-profiles'
import type { DB } from '../../db'
import { ApiError, badRequest, conflict, notFound } from '../../http/errors'
import {
  PaymentNotConfigured,
  PaymentNotificationRejected,
  PaymentProviderUnavailable,
  PaymentRequestRefused,
  type PaymentResult,
} from '../../providers/payments/types'
import { isDemoPaymentProvider } from '../../providers/payments/demo'
import { CONSENT_CHANNELS, describeRecords, writeConsent } from '../consents'
import { assertExpertTakesConsultations } from '../experts'
import { release, reserve, type Slot } from '../limits'
import { assertPersonInReach } from '../records'
import { checkConsultationRecords, endConsultationGrant, insertConsultationGrant } from '../sharing'
import { afterCommit, type ConsultContext } from './context'
import { creditPayment, startRefund } from './money'
import {
  consultationFor,
  type Consultation,
  DAY_MS,
  describeConsultation,
  HOUR_MS,
  lockConsultation,
  noEffects,
  peopleById,
  recordEvent,
  tell,
  toConsultExpert,
  transition,
} from './model'
import { platformShareBp } from './settings'
import { setTimer } from './timers'
import { readDetail } from './transition'

/*
 * The order: quote, submission (order + grant + daily slot), payment (prepay, notification,
 * query), cancellation. A payment result is applied by applyPaymentResult whatever brought it (the
 * provider's notification, the demo page, an order query): once, under the consultation's row lock.
 */

async function expertForQuote(db: DB, expertId: string) {
  const row = await db
    .selectFrom('experts')
    .innerJoin('users', 'users.id', 'experts.user_id')
    .innerJoin('hospitals', 'hospitals.id', 'experts.hospital_id')
    .select([
      'experts.user_id',
      'experts.name',
      'experts.photo_path',
      'users.avatar_url',
      'experts.title',
      'experts.department',
      'hospitals.name as hospital_name',
      'experts.followup_limit',
      'experts.daily_limit',
      'experts.demo',
    ])
    .where('experts.user_id', '=', expertId)
    .where('users.deleted_at', 'is', null)
    .where('experts.suspended_at', 'is', null)
    .executeTakeFirst()
  if (!row || !row.name) throw notFound(CONSULT_MESSAGES.notFound.replace('咨询', '专家'))
  return row
}

/** The expert's day in China time: the daily limit's window ends at the next Beijing midnight. */
function dailyWindow(now: Date): { day: string; msLeft: number } {
  const china = new Date(now.getTime() + 8 * HOUR_MS)
  const day = china.toISOString().slice(0, 10)
  const nextMidnight = Date.parse(`${day}T00:00:00.000Z`) + DAY_MS - 8 * HOUR_MS
  return { day, msLeft: Math.max(1, nextMidnight - now.getTime()) }
}

const dailyKey = (expertId: string, day: string) => `consult-daily:${expertId}:${day}`

export async function getQuote(
  ctx: ConsultContext,
  userId: string,
  expertId: string,
  service: ConsultService,
) {
  const now = ctx.now()
  const expert = await expertForQuote(ctx.db, expertId)
  let unavailable: string | null = null
  let priceFen = 0
  try {
    const taken = await assertExpertTakesConsultations(ctx.db, expertId, service)
    priceFen = taken.services.find((one) => one.kind === service)?.priceFen ?? 0
    const { day } = dailyWindow(now)
    const used = await ctx.db
      .selectFrom('limit_counters')
      .select(['count', 'window_ends_at'])
      .where('key', '=', dailyKey(expertId, day))
      .executeTakeFirst()
    if (used && used.window_ends_at > now.toISOString() && Number(used.count) >= taken.dailyLimit) {
      unavailable = CONSULT_MESSAGES.expertFull
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    unavailable = error.message
  }
  if (expertId === userId) unavailable = CONSULT_MESSAGES.selfExpert
  const shareBp = await platformShareBp(ctx.db)
  const split = splitPrice(priceFen, shareBp)
  return {
    expert: toConsultExpert(expert, expertId),
    service,
    serviceLabel: EXPERT_SERVICE_RULES[service].label,
    priceFen,
    expertFen: split.expertFen,
    platformFen: split.platformFen,
    answerHours: consultAnswerHours(service),
    followupLimit: Number(expert.followup_limit),
    unavailable,
    consentVersion: CONSULT_CONSENT_VERSION,
    consentText: consultConsentText(expert.name ?? '', CONSULT_GRANT_DAYS_AFTER),
    notice: CONSULT_NOTICE,
  }
}

export async function listPeople(ctx: ConsultContext, userId: string) {
  const links = await ctx.db
    .selectFrom('family_links')
    .innerJoin('users', 'users.id', 'family_links.member_user_id')
    .select('family_links.member_user_id')
    .where('family_links.manager_user_id', '=', userId)
    .where('family_links.ended_at', 'is', null)
    .where('users.deleted_at', 'is', null)
    .orderBy('family_links.created_at')
    .execute()
  const ids = [userId, ...links.map((link) => link.member_user_id)]
  const people = await peopleById(ctx.db, ctx.cipher, userId, ids, ctx.now())
  return { items: ids.flatMap((id) => (people.has(id) ? [people.get(id)!] : [])) }
}

const orderNumber = (now: Date) =>
  `C${now.toISOString().slice(0, 10).replaceAll('-', '')}${randomBytes(8).toString('hex').toUpperCase()}`

/** Submission: checks, then the daily slot (reserved first), then one transaction for the rest. */
export async function createConsultation(
  ctx: ConsultContext,
  userId: string,
  input: ConsultApplicationInput,
): Promise<ConsultDetail> {
  const now = ctx.now()
  const db = ctx.db
  const personId = input.personId ?? userId
  await assertPersonInReach(db, userId, personId)
  if (input.expertId === userId || input.expertId === personId)
    throw badRequest(CONSULT_MESSAGES.selfExpert)
  if (!input.consent.accepted) throw badRequest(CONSULT_MESSAGES.consentRequired)
  if (input.consent.version !== CONSULT_CONSENT_VERSION)
    throw badRequest(CONSULT_MESSAGES.consentOutdated)
  const person = (await peopleById(db, ctx.cipher, userId, [personId], now)).get(personId)
  if (!person?.idCardBound) throw badRequest(CONSULT_MESSAGES.idCardRequired)
  const examIds = [...new Set(input.examIds)]
  const reportIds = [...new Set(input.reportIds)]
  if (examIds.length + reportIds.length + input.externalExams.length === 0) {
    throw badRequest(CONSULT_MESSAGES.recordsRequired)
  }
  if (input.service === 'imaging' && examIds.length === 0)
    throw badRequest(CONSULT_MESSAGES.imagingNeedsExam)
  const expert = await expertForQuote(db, input.expertId)
  const taken = await assertExpertTakesConsultations(db, input.expertId, input.service)
  const priceFen = taken.services.find((one) => one.kind === input.service)?.priceFen ?? 0
  if (priceFen !== input.priceFen) throw conflict(CONSULT_MESSAGES.priceChanged)
  const records = await checkConsultationRecords(db, ctx.cipher, {
    userId,
    personId,
    examIds,
    reportIds,
  })
  const sharedLabel = await describeRecords(db, examIds, reportIds)
  const pictureIds = [
    ...input.offlinePictureIds,
    ...input.externalExams.flatMap((exam) => exam.pictureIds),
  ]
  if (pictureIds.length > 0) {
    const owned = await db
      .selectFrom('consultation_pictures')
      .select('id')
      .where('id', 'in', [...new Set(pictureIds)])
      .where('owner_user_id', '=', userId)
      .where('consultation_id', 'is', null)
      .execute()
    if (owned.length !== new Set(pictureIds).size)
      throw badRequest(CONSULT_MESSAGES.pictureNotFound)
  }

  // Reserve first: the expert's daily slot, one atomic statement; given back if anything fails.
  const { day, msLeft } = dailyWindow(now)
  const slot = await reserve(db, {
    key: dailyKey(input.expertId, day),
    limit: taken.dailyLimit,
    windowMs: msLeft,
    now,
  })
  if (!slot.ok) throw conflict(CONSULT_MESSAGES.expertFull)

  const id = randomUUID()
  const grantId = randomUUID()
  const shareBp = await platformShareBp(db)
  const split = splitPrice(priceFen, shareBp)
  const at = now.toISOString()
  const payBy = new Date(now.getTime() + CONSULT_PAY_MINUTES * 60_000).toISOString()
  // The grant's outer bound: the longest a consultation can run, plus the days after its end.
  const longest =
    CONSULT_PAY_MINUTES * 60_000 +
    (consultAnswerHours(input.service) + CONSULT_AUTO_COMPLETE_HOURS) * HOUR_MS
  const grantUntil = new Date(now.getTime() + longest + CONSULT_GRANT_DAYS_AFTER * DAY_MS)
  const effects = noEffects()
  try {
    await db.transaction().execute(async (trx) => {
      await insertConsultationGrant(
        trx,
        {
          grantId,
          consultationId: id,
          userId,
          personId,
          expertId: input.expertId,
          examIds,
          reportIds,
          expiresAt: grantUntil,
        },
        records,
        now,
      )
      await trx
        .insertInto('consultations')
        .values({
          id,
          patient_user_id: userId,
          person_user_id: personId,
          expert_user_id: input.expertId,
          service: input.service,
          state: 'pending-payment',
          price_fen: priceFen,
          expert_fen: split.expertFen,
          platform_fen: split.platformFen,
          share_bp: shareBp,
          chief_complaint: input.chiefComplaint.trim(),
          present_illness: input.presentIllness.trim(),
          past_history: input.pastHistory.trim(),
          allergies: input.allergies.trim(),
          questions: input.questions.trim(),
          seen_offline: input.seenOffline ? 1 : 0,
          external_exams_json: JSON.stringify({
            offline: input.offlinePictureIds,
            exams: input.externalExams.map((exam) => ({
              ...exam,
              hospital: exam.hospital.trim(),
              type: exam.type.trim(),
            })),
          }),
          followup_limit: Number(expert.followup_limit),
          followups_used: 0,
          grant_id: grantId,
          consent_version: input.consent.version,
          order_no: orderNumber(now),
          provider: ctx.payments.name,
          transaction_id: null,
          daily_slot_key: JSON.stringify({ key: slot.key, windowEndsAt: slot.windowEndsAt }),
          pay_by: payBy,
          paid_at: null,
          accept_by: null,
          accepted_at: null,
          answer_by: null,
          answered_at: null,
          complete_at: null,
          completed_at: null,
          ended_at: null,
          settle_at: null,
          settled_at: null,
          decline_reason: null,
          message_seq: 0,
          patient_read_seq: 0,
          expert_read_seq: 0,
          adopted_at: null,
          rating_stars: null,
          rating_tags: null,
          rating_text: null,
          rated_at: null,
          published_at: null,
          deleted_by_patient_at: null,
          demo: Number(expert.demo) === 1 ? 1 : 0,
          created_at: at,
          updated_at: at,
        })
        .execute()
      if (pictureIds.length > 0) {
        await trx
          .updateTable('consultation_pictures')
          .set({ consultation_id: id })
          .where('id', 'in', [...new Set(pictureIds)])
          .execute()
      }
      // The separate consent (PIPL art. 29), by its text version.
      await writeConsent(
        trx,
        {
          userId,
          subjectId: personId,
          purpose: 'consult-share',
          version: input.consent.version,
          targetId: id,
          channel: CONSENT_CHANNELS.consultation,
          detail: `向 ${expert.name ?? '专家'} 共享 ${sharedLabel}`,
        },
        now,
      )
      await recordEvent(trx, id, 'pending-payment', 'patient', null, now)
      await setTimer(trx, id, payBy, now)
    })
  } catch (error) {
    await release(db, slot)
    throw error
  }
  await afterCommit(ctx, effects)
  const row = await db
    .selectFrom('consultations')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return describeConsultation(db, ctx.cipher, row, 'patient', now)
}

function slotOf(row: Consultation): Slot | null {
  if (!row.daily_slot_key) return null
  const { key, windowEndsAt } = JSON.parse(row.daily_slot_key) as {
    key: string
    windowEndsAt: string
  }
  return { ok: true, key, count: 0, remaining: 0, windowEndsAt }
}

/** Prepay with the provider; the app then pays (requestPayment or the demo page). */
export async function startPayment(
  ctx: ConsultContext,
  userId: string,
  consultationId: string,
  client: 'weapp' | 'wechat-h5' | 'h5',
) {
  const now = ctx.now()
  const { row } = await consultationFor(ctx.db, userId, consultationId, 'patient')
  if (row.state !== 'pending-payment') throw conflict(CONSULT_MESSAGES.notPayable)
  if (Date.parse(row.pay_by) <= now.getTime()) throw conflict(CONSULT_MESSAGES.payClosed)
  if (ctx.payments.name !== row.provider) throw conflict(CONSULT_MESSAGES.paymentUnavailable)
  if (ctx.payments.name === 'wechatpay' && client === 'h5')
    throw badRequest(CONSULT_MESSAGES.paymentWechatOnly)
  if (ctx.payments.name === 'wechatpay' && !ctx.notifyUrls)
    throw new ApiError(503, CONSULT_MESSAGES.paymentNotConfigured)
  let openid: string | null = null
  if (ctx.payments.name === 'wechatpay') {
    const user = await ctx.db
      .selectFrom('users')
      .select('wechat_openid')
      .where('id', '=', userId)
      .executeTakeFirst()
    openid = user?.wechat_openid ?? null
    if (!openid) throw badRequest(CONSULT_MESSAGES.paymentOpenid)
  }
  const expert = await expertForQuote(ctx.db, row.expert_user_id).catch(() => null)
  try {
    const prepay = await ctx.payments.prepay({
      outTradeNo: row.order_no,
      description: `${row.service === 'imaging' ? '影像会诊' : '图文咨询'}-${expert?.name ?? '专家'}`,
      amountFen: Number(row.price_fen),
      payerOpenid: openid,
      expiresAt: new Date(row.pay_by),
      notifyUrl: ctx.notifyUrls?.payment ?? '',
    })
    return {
      kind: prepay.kind,
      params: prepay.kind === 'jsapi' ? prepay.params : null,
      demoToken: prepay.kind === 'demo' ? prepay.token : null,
      amountFen: Number(row.price_fen),
      payBy: row.pay_by,
    }
  } catch (error) {
    throw paymentError(error)
  }
}

export function paymentError(error: unknown): unknown {
  if (error instanceof PaymentNotConfigured)
    return new ApiError(503, CONSULT_MESSAGES.paymentNotConfigured)
  if (error instanceof PaymentProviderUnavailable)
    return new ApiError(503, CONSULT_MESSAGES.paymentUnavailable)
  if (error instanceof PaymentNotificationRejected)
    return badRequest(CONSULT_MESSAGES.demoPaymentInvalid)
  if (error instanceof PaymentRequestRefused) return badRequest(error.message)
  return error
}

export type PaymentOutcome =
  'applied' | 'duplicate' | 'refunded-late' | 'not-paid' | 'unknown-order' | 'amount-mismatch'

/**
 * A payment result from the provider, applied once: whatever brought it (a notification, the demo
 * page, a query), under the consultation's row lock. A payment that arrives for an order already
 * closed is credited and refunded in full at once (the patient never loses it).
 */
export async function applyPaymentResult(
  ctx: ConsultContext,
  result: PaymentResult,
): Promise<PaymentOutcome> {
  if (result.state !== 'SUCCESS' || !result.transactionId) return 'not-paid'
  const now = ctx.now()
  const effects = noEffects()
  const transactionId = result.transactionId
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<PaymentOutcome> => {
    const found = await trx
      .selectFrom('consultations')
      .select('id')
      .where('order_no', '=', result.outTradeNo)
      .executeTakeFirst()
    if (!found) return 'unknown-order'
    const row = (await lockConsultation(trx, found.id))!
    if (result.amountFen !== Number(row.price_fen)) {
      ctx.log.error(
        { orderNo: row.order_no, amount: result.amountFen, price: row.price_fen },
        'payment amount differs from the order; not applied',
      )
      return 'amount-mismatch'
    }
    const credited = await creditPayment(trx, row, transactionId, Number(row.price_fen), now)
    if (credited === 'duplicate') return 'duplicate'
    if (row.state !== 'pending-payment') {
      // Paid after we closed it (or a second payment of one order): give it all back.
      await startRefund(
        trx,
        effects,
        {
          ...row,
          transaction_id: row.transaction_id ?? transactionId,
          paid_at: row.paid_at ?? now.toISOString(),
        },
        Number(row.price_fen),
        '订单已关闭后到账，自动全额退款',
        now,
      )
      await recordEvent(
        trx,
        row.id,
        row.state as never,
        'system',
        `订单关闭后收到付款 ${transactionId}，已自动退款`,
        now,
      )
      return 'refunded-late'
    }
    const paidAt = result.paidAt ?? now.toISOString()
    const acceptBy = new Date(now.getTime() + CONSULT_ACCEPT_HOURS * HOUR_MS).toISOString()
    const answerBy = new Date(
      now.getTime() + consultAnswerHours(row.service as ConsultService) * HOUR_MS,
    ).toISOString()
    await transition(
      trx,
      effects,
      {
        id: row.id,
        from: ['pending-payment'],
        to: 'waiting-accept',
        set: {
          paid_at: paidAt,
          transaction_id: transactionId,
          accept_by: acceptBy,
          answer_by: answerBy,
        },
        actor: 'patient',
        note: null,
        line: '患者已支付，等待专家接诊',
      },
      now,
    )
    await tell(
      trx,
      effects,
      row.expert_user_id,
      row.id,
      '您有一个新的咨询',
      `${row.service === 'imaging' ? '影像会诊' : '图文咨询'}：${row.chief_complaint.slice(0, 30)}，请在 ${CONSULT_ACCEPT_HOURS} 小时内接诊`,
      now,
      'patientQuestions',
    )
    effects.signals.push({
      userIds: [row.expert_user_id],
      signal: { kind: 'consultation.new', consultationId: row.id },
    })
    // The pay timer is done with: the accept deadline replaces it.
    await setTimer(trx, row.id, acceptBy, now)
    return 'applied'
  })
  await afterCommit(ctx, effects)
  return outcome
}

/** 演示支付's 确认支付: the demo provider's signed notification, through the same code. */
export async function confirmDemoPayment(
  ctx: ConsultContext,
  userId: string,
  consultationId: string,
  token: string,
) {
  const { row } = await consultationFor(ctx.db, userId, consultationId, 'patient')
  const demo = ctx.payments
  if (!isDemoPaymentProvider(demo) || row.provider !== 'demo')
    throw badRequest(CONSULT_MESSAGES.demoPaymentInvalid)
  const read = demo.readToken(token)
  if (!read || read.outTradeNo !== row.order_no || read.amountFen !== Number(row.price_fen)) {
    throw badRequest(CONSULT_MESSAGES.demoPaymentInvalid)
  }
  if (row.state !== 'pending-payment') throw conflict(CONSULT_MESSAGES.notPayable)
  // The same path as WeChat's: a signed notification, verified, then applied once.
  const notification = demo.demoNotification(
    row.order_no,
    Number(row.price_fen),
    `DEMO${randomBytes(10).toString('hex').toUpperCase()}`,
  )
  let result: PaymentResult
  try {
    result = await demo.parsePaymentNotification(notification)
  } catch (error) {
    throw paymentError(error)
  }
  await applyPaymentResult(ctx, result)
  return readDetail(ctx, userId, consultationId, 'patient')
}

/** After requestPayment: the notification may be late, so ask the provider. */
export async function syncPayment(ctx: ConsultContext, userId: string, consultationId: string) {
  const { row } = await consultationFor(ctx.db, userId, consultationId, 'patient')
  if (
    row.state === 'pending-payment' &&
    ctx.payments.name === row.provider &&
    ctx.payments.configured
  ) {
    try {
      const result = await ctx.payments.queryPayment(row.order_no)
      if (result) await applyPaymentResult(ctx, result)
    } catch (error) {
      ctx.log.warn(
        { err: error, orderNo: row.order_no },
        'payment query failed; the notification or the timer settles it',
      )
    }
  }
  return readDetail(ctx, userId, consultationId, 'patient')
}

/**
 * Closes an unpaid order here: cancelled, the expert's slot given back, the grant ended at once.
 * The patient's 取消 then asks the provider to close its order (best effort: a payment that still
 * arrives is refunded by applyPaymentResult); the pay timer has asked it already (expireUnpaid).
 */
async function closeUnpaid(
  ctx: ConsultContext,
  row: Consultation,
  actor: 'patient' | 'system',
  note: string,
  { closeAtProvider }: { closeAtProvider: boolean },
): Promise<boolean> {
  const now = ctx.now()
  const effects = noEffects()
  const closed = await ctx.db.transaction().execute(async (trx) => {
    const moved = await transition(
      trx,
      effects,
      {
        id: row.id,
        from: ['pending-payment'],
        to: 'cancelled',
        set: { ended_at: now.toISOString() },
        actor,
        note,
        line: note,
      },
      now,
    )
    if (!moved) return false
    await endConsultationGrant(trx, row.grant_id, now)
    await setTimer(trx, row.id, null, now)
    return true
  })
  if (!closed) return false
  const slot = slotOf(row)
  if (slot) await release(ctx.db, slot)
  await afterCommit(ctx, effects)
  if (closeAtProvider && ctx.payments.configured && ctx.payments.name === row.provider) {
    await ctx.payments.closeOrder(row.order_no).catch((error: unknown) => {
      ctx.log.warn(
        { err: error, orderNo: row.order_no },
        'closing the provider order failed; a late payment is refunded',
      )
    })
  }
  return true
}

/** How long the pay timer waits to ask again when the provider says paid but cannot be read. */
const PAY_TIMER_RETRY_MS = 60_000

/**
 * What the provider says of an order, applied when it says paid (applyPaymentResult: the same code
 * as the notification, keyed by the transaction id, so a notification arriving as well adds
 * nothing). 'none': the provider has no such order (paying never started); 'unpaid': not paid;
 * 'unknown': the provider could not be asked.
 */
async function applyProviderState(
  ctx: ConsultContext,
  row: Consultation,
): Promise<PaymentOutcome | 'none' | 'unpaid' | 'unknown'> {
  let result: PaymentResult | null
  try {
    result = await ctx.payments.queryPayment(row.order_no)
  } catch (error) {
    ctx.log.warn({ err: error, orderNo: row.order_no }, 'payment query failed at the pay deadline')
    return 'unknown'
  }
  if (!result) return 'none'
  if (result.state !== 'SUCCESS') return 'unpaid'
  return applyPaymentResult(ctx, result)
}

/** The outcomes that settle an order as paid (credited now, or already). */
const PAID: ReadonlySet<string> = new Set(['applied', 'duplicate', 'refunded-late'])

/**
 * The pay timer: the order's pay window has passed. The provider is asked first: paid there (the
 * notification is late or lost) → the payment is applied, and the order goes on to 待接诊 instead
 * of being closed and refunded. Otherwise the provider's order is closed first and then ours, so no
 * payment can arrive after our close; if closing there says it was paid meanwhile (ORDERPAID), the
 * payment is read and applied (when it cannot be read, the timer asks again in a minute). When the
 * provider cannot be reached, ours is closed anyway: the slot goes back, and a payment that still
 * arrives is credited and refunded in full (applyPaymentResult).
 */
export async function expireUnpaid(
  ctx: ConsultContext,
  row: Consultation,
  note: string,
): Promise<string> {
  const provider = ctx.payments
  if (provider.configured && provider.name === row.provider) {
    const found = await applyProviderState(ctx, row)
    if (PAID.has(found)) return `paid at the provider (${found})`
    // 'none': no order there to close (and a prepay after the window is refused: startPayment).
    if (found !== 'none') {
      const closed = await closeAtProvider(ctx, row)
      if (closed !== 'closed') return closed
    }
  }
  return (await closeUnpaid(ctx, row, 'system', note, { closeAtProvider: false }))
    ? 'closed'
    : 'raced'
}

/** The pay timer's close at the provider: 'closed' (or could not be: ours closes anyway), or paid. */
async function closeAtProvider(ctx: ConsultContext, row: Consultation): Promise<string> {
  try {
    await ctx.payments.closeOrder(row.order_no)
    return 'closed'
  } catch (error) {
    if (!(error instanceof PaymentRequestRefused && error.code === 'ORDERPAID')) {
      ctx.log.warn(
        { err: error, orderNo: row.order_no },
        'closing the provider order failed; a late payment is refunded',
      )
      return 'closed'
    }
  }
  // Paid between the query and the close.
  const again = await applyProviderState(ctx, row)
  if (PAID.has(again)) return `paid at the provider (${again})`
  if (again === 'unknown') {
    const now = ctx.now()
    const retryAt = new Date(now.getTime() + PAY_TIMER_RETRY_MS).toISOString()
    await ctx.db.transaction().execute((trx) => setTimer(trx, row.id, retryAt, now))
    return 'paid at the provider, not readable yet: asking again later'
  }
  ctx.log.error(
    { orderNo: row.order_no, outcome: again },
    'the provider says the order is paid but the payment was not applied; closing ours',
  )
  return 'closed'
}

/** 取消: unpaid closes the order; paid and not yet accepted refunds in full (the patient's right). */
export async function cancelConsultation(
  ctx: ConsultContext,
  userId: string,
  consultationId: string,
) {
  const { row } = await consultationFor(ctx.db, userId, consultationId, 'patient')
  if (row.state === 'pending-payment') {
    if (!(await closeUnpaid(ctx, row, 'patient', '患者取消了订单', { closeAtProvider: true })))
      throw conflict(CONSULT_MESSAGES.cannotCancel)
    return readDetail(ctx, userId, consultationId, 'patient')
  }
  const now = ctx.now()
  const effects = noEffects()
  const done = await ctx.db.transaction().execute(async (trx) => {
    const locked = await lockConsultation(trx, row.id)
    const open = await trx
      .selectFrom('consultation_complaints')
      .select('state')
      .where('consultation_id', '=', row.id)
      .where('state', '=', 'open')
      .executeTakeFirst()
    if (!locked || locked.state !== 'waiting-accept' || open) return false
    const moved = await transition(
      trx,
      effects,
      {
        id: row.id,
        from: ['waiting-accept'],
        to: 'cancelled',
        set: { ended_at: now.toISOString() },
        actor: 'patient',
        note: '接诊前取消，全额退款',
        line: '患者在接诊前取消了咨询，费用将全额退回',
      },
      now,
    )
    if (!moved) return false
    await startRefund(trx, effects, moved, Number(moved.price_fen), '接诊前取消', now)
    await setTimer(trx, moved.id, null, now)
    await endConsultationGrant(
      trx,
      moved.grant_id,
      new Date(now.getTime() + CONSULT_GRANT_DAYS_AFTER * DAY_MS),
    )
    await tell(
      trx,
      effects,
      moved.expert_user_id,
      moved.id,
      '患者取消了咨询',
      `「${moved.chief_complaint.slice(0, 30)}」已在接诊前取消`,
      now,
      'patientQuestions',
    )
    return true
  })
  if (!done) throw conflict(CONSULT_MESSAGES.cannotCancel)
  const slot = slotOf(row)
  if (slot) await release(ctx.db, slot)
  await afterCommit(ctx, effects)
  return readDetail(ctx, userId, consultationId, 'patient')
}
