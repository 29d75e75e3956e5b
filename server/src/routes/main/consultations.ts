import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod/mini'
import { REPORT_PHOTO_MAX_BYTES } from '@contract/main/dicom-upload'
import { envelope, ErrorEnvelopeSchema } from '@contract/envelope'
import {
  acceptConsultation,
  adoptConsultation,
  answerConsultation,
  cancelConsultation,
  complainConsultation,
  confirmDemoPayment,
  ConsultPictureSchema,
  countExpertConsultations,
  createConsultation,
  declineConsultation,
  decideComplaint,
  deleteConsultation,
  getConsultation,
  getConsultQuote,
  getMoneySettings,
  listConsultMessages,
  listConsultPeople,
  listExpertConsultations,
  listMyConsultations,
  listPublicQuestions,
  markConsultRead,
  operatorListConsultations,
  payConsultation,
  publishConsultation,
  rateConsultation,
  runLedgerCheck,
  sendConsultMessage,
  syncConsultPayment,
  updateMoneySettings,
} from '@contract/main/consultations'
import * as consult from '../../domain/consultations'
import { lastLedgerCheck, runAndRecordLedgerCheck } from '../../domain/ledger'
import { recordOperatorAction } from '../../domain/operator'
import { authenticate, currentOperator, currentUser, optionalUserId } from '../../http/auth'
import { ok } from '../../http/envelope'
import { readOneFile } from '../../http/one-file'
import { route } from '../../http/route'
import { PaymentNotificationRejected } from '../../providers/payments/types'
import { consultContext } from '../../consult-context'

/**
 * Main service: consultations (contract/main/consultations.ts, issue 21): the patient's order and
 * 我的咨询, the conversation, the expert's 患者咨询 (role checked before the input is read), the
 * operators' list, complaints and money settings; and the payment provider's notifications.
 */
export default async function mainConsultationsRoutes(app: FastifyInstance): Promise<void> {
  const ctx = () => consultContext(app)
  const me = (request: FastifyRequest) => currentUser(request).id

  route(app, getConsultQuote, async (input, { request }) =>
    consult.getQuote(ctx(), me(request), input.expertId, input.service),
  )
  route(app, listConsultPeople, async (_input, { request }) =>
    consult.listPeople(ctx(), me(request)),
  )
  route(app, createConsultation, async (input, { request }) =>
    consult.createConsultation(ctx(), me(request), input),
  )
  route(app, payConsultation, async (input, { request }) =>
    consult.startPayment(ctx(), me(request), input.consultationId, input.client),
  )
  route(app, confirmDemoPayment, async (input, { request }) =>
    consult.confirmDemoPayment(ctx(), me(request), input.consultationId, input.token),
  )
  route(app, syncConsultPayment, async (input, { request }) =>
    consult.syncPayment(ctx(), me(request), input.consultationId),
  )
  route(app, cancelConsultation, async (input, { request }) =>
    consult.cancelConsultation(ctx(), me(request), input.consultationId),
  )
  route(app, listMyConsultations, async (input, { request }) =>
    consult.listMine(ctx(), me(request), input),
  )
  route(app, getConsultation, async (input, { request }) =>
    consult.readDetail(ctx(), me(request), input.consultationId),
  )
  route(app, listConsultMessages, async (input, { request }) =>
    consult.listMessages(
      ctx(),
      me(request),
      input.consultationId,
      input.after ?? 0,
      input.limit ?? 50,
    ),
  )
  route(app, sendConsultMessage, async (input, { request }) =>
    consult.sendMessage(ctx(), me(request), input),
  )
  route(app, markConsultRead, async (input, { request }) =>
    consult.markRead(ctx(), me(request), input.consultationId, input.seq),
  )
  route(app, adoptConsultation, async (input, { request }) =>
    consult.adoptConsultation(ctx(), me(request), input.consultationId),
  )
  route(app, rateConsultation, async (input, { request }) =>
    consult.rate(ctx(), me(request), input.consultationId, input),
  )
  route(app, complainConsultation, async (input, { request }) =>
    consult.complain(ctx(), me(request), input.consultationId, input.text),
  )
  route(app, publishConsultation, async (input, { request }) =>
    consult.publish(ctx(), me(request), input.consultationId, input.public),
  )
  route(app, deleteConsultation, async (input, { request }) =>
    consult.removeFromList(ctx(), me(request), input.consultationId),
  )
  route(app, listPublicQuestions, async (input, { request }) =>
    consult.listPublic(ctx(), (await optionalUserId(request)) ?? null, input),
  )

  route(app, listExpertConsultations, async (input, { request }) =>
    consult.listForExpert(ctx(), me(request), input),
  )
  route(app, countExpertConsultations, async (_input, { request }) =>
    consult.expertCounts(ctx(), me(request)),
  )
  route(app, acceptConsultation, async (input, { request }) =>
    consult.acceptConsultation(ctx(), me(request), input.consultationId),
  )
  route(app, declineConsultation, async (input, { request }) =>
    consult.declineConsultation(ctx(), me(request), input.consultationId, input.reason),
  )
  route(app, answerConsultation, async (input, { request }) =>
    consult.answer(ctx(), me(request), input, request.ip),
  )

  route(app, operatorListConsultations, async (input) => consult.listForOperator(ctx(), input))
  route(app, decideComplaint, async (input, { request }) =>
    consult.decideComplaint(
      ctx(),
      currentOperator(request).id,
      input.consultationId,
      input.refundFen,
      input.note,
    ),
  )
  route(app, getMoneySettings, async () => {
    const failed = await app.db
      .selectFrom('consultation_refunds')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', '=', 'failed')
      .executeTakeFirst()
    return {
      platformShareBp: await consult.platformShareBp(app.db),
      ledgerCheck: await lastLedgerCheck(app.db),
      refundsFailed: Number(failed?.n ?? 0),
    }
  })
  route(app, updateMoneySettings, async (input, { request }) => {
    const operatorId = currentOperator(request).id
    await app.db.transaction().execute(async (trx) => {
      await consult.setPlatformShareBp(trx, input.platformShareBp, operatorId, app.now())
      await recordOperatorAction(
        trx,
        {
          operatorId,
          action: 'platform-share-set',
          targetId: 'platform-share',
          detail: `${input.platformShareBp / 100}%`,
        },
        app.now(),
      )
    })
    return { ok: true as const }
  })
  route(app, runLedgerCheck, async () => {
    const result = await runAndRecordLedgerCheck(app.db, app.now())
    return { ok: result.ok, at: result.at, problems: result.problems }
  })

  // Pictures: one per request (multipart field `file`), sniffed, decoded, re-encoded.
  await app.register(async (pictures) => {
    await pictures.register(multipart, {
      limits: { fileSize: REPORT_PHOTO_MAX_BYTES, files: 1, fields: 0, parts: 2 },
    })
    pictures.route({
      method: 'POST',
      url: '/main/consultations/pictures',
      schema: {
        summary:
          '上传咨询图片（multipart 字段 file，一次一张，JPG/PNG，不超过 10 MB；重新编码，去除 EXIF）',
        tags: ['main'],
        consumes: ['multipart/form-data'],
        security: [{ bearerAuth: [] }],
        response: {
          200: envelope(ConsultPictureSchema),
          '4xx': ErrorEnvelopeSchema,
          '5xx': ErrorEnvelopeSchema,
        },
      },
      onRequest: async (request: FastifyRequest) => authenticate(request),
      handler: async (request) => {
        const bytes = await readOneFile(request, {
          none: '请选择要上传的图片',
          tooLarge: '单张图片不能超过 10 MB，请压缩后重试',
          several: '一次只能上传一张图片',
        })
        return ok(await consult.uploadPicture(app.db, app.store, me(request), bytes, app.now()))
      },
    })
  })
  app.route({
    method: 'GET',
    url: '/main/consultations/pictures/:pictureId',
    schema: {
      summary: '咨询图片（image/jpeg；仅上传者和该咨询的双方）',
      tags: ['main'],
      security: [{ bearerAuth: [] }],
      params: z.object({ pictureId: z.string().check(z.maxLength(64)) }),
      response: { '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema },
    },
    onRequest: async (request: FastifyRequest) => authenticate(request),
    handler: async (request, reply) => {
      const { pictureId } = request.params as { pictureId: string }
      const key = await consult.readPicture(app.db, me(request), pictureId)
      const object = await app.store.get(key)
      return reply
        .header('content-type', 'image/jpeg')
        .header('content-length', String(object.length))
        .header('cache-control', 'private, max-age=86400')
        .send(object.body)
    },
  })

  // WeChat Pay's notifications: the raw body is verified before anything is read. Answer 200
  // (with no body) once applied or already applied; 4xx for a forgery (WeChat retries a 5xx).
  await app.register(async (notify) => {
    notify.removeAllContentTypeParsers()
    notify.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, body),
    )
    const headersOf = (request: FastifyRequest) =>
      Object.fromEntries(
        Object.entries(request.headers).map(([key, value]) => [
          key.toLowerCase(),
          Array.isArray(value) ? value[0] : value,
        ]),
      )
    notify.post(
      PAYMENT_NOTIFY_PATH,
      { schema: { hide: true } as never },
      async (request, reply) => {
        try {
          const result = await app.providers.payments.parsePaymentNotification({
            headers: headersOf(request),
            rawBody: String(request.body ?? ''),
          })
          const outcome = await consult.applyPaymentResult(ctx(), result)
          request.log.info({ outcome, orderNo: result.outTradeNo }, 'payment notification')
          return reply.code(outcome === 'amount-mismatch' ? 400 : 204).send()
        } catch (error) {
          if (error instanceof PaymentNotificationRejected) {
            request.log.warn({ err: error }, 'payment notification refused')
            return reply.code(401).send({ code: 'FAIL', message: '签名校验失败' })
          }
          throw error
        }
      },
    )
    notify.post(REFUND_NOTIFY_PATH, { schema: { hide: true } as never }, async (request, reply) => {
      try {
        const result = await app.providers.payments.parseRefundNotification({
          headers: headersOf(request),
          rawBody: String(request.body ?? ''),
        })
        const refund = await app.db
          .selectFrom('consultation_refunds')
          .selectAll()
          .where('refund_no', '=', result.outRefundNo)
          .executeTakeFirst()
        if (refund && result.state === 'SUCCESS') {
          const now = app.now()
          await app.db
            .transaction()
            .execute((trx) =>
              consult.finishRefund(
                trx,
                refund,
                app.providers.payments.name,
                result.refundId,
                result.succeededAt ?? now.toISOString(),
                now,
              ),
            )
        }
        return reply.code(204).send()
      } catch (error) {
        if (error instanceof PaymentNotificationRejected)
          return reply.code(401).send({ code: 'FAIL', message: '签名校验失败' })
        throw error
      }
    })
  })
  // The e2e suite's clock step (TEST_CLOCK=1: demo mode on a loopback host only), then a sweep so
  // the timers now due run at once.
  if (app.testClock) {
    const clock = app.testClock
    app.post('/main/demo/clock', { schema: { hide: true } as never }, async (request) => {
      const { advanceMs } = (request.body ?? {}) as { advanceMs?: unknown }
      if (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs) || advanceMs < 0) {
        return {
          code: 400,
          message: '请给出要前进的毫秒数',
          data: null,
          error: '请给出要前进的毫秒数',
        }
      }
      const at = clock.advance(advanceMs)
      await app.jobs.sweep()
      return ok({ now: at.toISOString() })
    })
  }
}

export const PAYMENT_NOTIFY_PATH = '/main/pay/wechatpay/notify'
export const REFUND_NOTIFY_PATH = '/main/pay/wechatpay/refund-notify'
