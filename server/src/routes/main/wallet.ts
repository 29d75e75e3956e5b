import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod/mini'
import { ErrorEnvelopeSchema } from '@contract/envelope'
import {
  cancelWithdrawal,
  confirmWithdrawal,
  createWithdrawal,
  getWallet,
  getWalletTrade,
  getWithdrawal,
  INCOME_REPORT_QUARTER_RE,
  listWalletTrades,
  listWithdrawals,
  operatorDecideWithdrawal,
  operatorGetWalletLimits,
  operatorListReconciliations,
  operatorListWithdrawals,
  operatorReconcile,
  operatorSetWalletLimits,
  quoteWithdrawal,
  syncWithdrawal,
} from '@contract/main/wallet'
import { yuanOf } from '@contract/main/consultations'
import * as wallet from '../../domain/wallet'
import { recordOperatorAction } from '../../domain/operator'
import { authenticate, currentOperator, currentUser } from '../../http/auth'
import { badRequest } from '../../http/errors'
import { route } from '../../http/route'
import { TransferNotConfigured, TransferNotificationRejected } from '../../providers/transfers'
import { TRANSFER_NOTIFY_PATH, walletContext } from '../../wallet-context'

/**
 * Main service: the expert's wallet (contract/main/wallet.ts, issue 22): 我的钱包, 交易记录, 提现 and
 * 提现记录 (role expert, checked before the input is read; another expert's withdrawal is 404), the
 * operators' 提现审核, 提现限额, 对账 and the quarterly income report (CSV), and the transfer
 * provider's state notifications.
 */
export default async function mainWalletRoutes(app: FastifyInstance): Promise<void> {
  const ctx = () => walletContext(app)
  const me = (request: FastifyRequest) => currentUser(request).id

  route(app, getWallet, async (_input, { request }) => wallet.getOverview(ctx(), me(request)))
  route(app, listWalletTrades, async (input, { request }) =>
    wallet.listTrades(ctx(), me(request), input),
  )
  route(app, getWalletTrade, async (input, { request }) =>
    wallet.getTrade(ctx(), me(request), input.tradeId),
  )
  route(app, quoteWithdrawal, async (input, { request }) =>
    wallet.quoteWithdrawal(ctx(), me(request), input.amount),
  )
  route(app, createWithdrawal, async (input, { request }) =>
    wallet.createWithdrawal(ctx(), me(request), input, request.ip),
  )
  route(app, listWithdrawals, async (input, { request }) =>
    wallet.listWithdrawals(ctx(), me(request), input),
  )
  route(app, getWithdrawal, async (input, { request }) =>
    wallet.getWithdrawal(ctx(), me(request), input.withdrawalId),
  )
  route(app, confirmWithdrawal, async (input, { request }) =>
    wallet.confirmWithdrawal(ctx(), me(request), input.withdrawalId),
  )
  route(app, syncWithdrawal, async (input, { request }) =>
    wallet.syncWithdrawal(ctx(), me(request), input.withdrawalId),
  )
  route(app, cancelWithdrawal, async (input, { request }) =>
    wallet.cancelWithdrawal(ctx(), me(request), input.withdrawalId),
  )

  route(app, operatorListWithdrawals, async (input) => wallet.operatorListWithdrawals(ctx(), input))
  route(app, operatorDecideWithdrawal, async (input, { request }) =>
    wallet.decideWithdrawal(ctx(), currentOperator(request).id, input),
  )
  // 提现限额: read when a withdrawal is quoted or made, so a change applies to new withdrawals only
  // (one already waiting for 审核 or on its way keeps going). Saved with its audit line at once.
  route(app, operatorGetWalletLimits, async () => wallet.walletLimits(app.db))
  route(app, operatorSetWalletLimits, async (input, { request }) => {
    const operatorId = currentOperator(request).id
    return app.db.transaction().execute(async (trx) => {
      const saved = await wallet.setWalletLimits(trx, input, operatorId, app.now())
      await recordOperatorAction(
        trx,
        {
          operatorId,
          action: 'wallet-limits-set',
          targetId: 'wallet-limits',
          detail: limitsDetail(saved),
        },
        app.now(),
      )
      return saved
    })
  })
  route(app, operatorReconcile, async (input, { request }) =>
    wallet.reconcileDay(ctx(), input.date, currentOperator(request).id),
  )
  route(app, operatorListReconciliations, async (input) =>
    wallet.listReconciliations(app.db, input),
  )

  // The quarterly income report: a CSV download, operators only (checked before the query is
  // read), audited; never cached anywhere.
  app.route({
    method: 'GET',
    url: INCOME_REPORT_PATH,
    schema: {
      summary: '季度收入报送表（CSV，国务院令第810号第四条：身份信息与收入；仅运营，记入操作日志）',
      tags: ['main'],
      security: [{ bearerAuth: [] }],
      querystring: z.object({ quarter: z.string().check(z.maxLength(8)) }),
      response: { '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema },
    },
    onRequest: async (request: FastifyRequest) => {
      await authenticate(request)
      currentOperator(request)
    },
    handler: async (request, reply) => {
      const { quarter } = request.query as { quarter: string }
      if (!INCOME_REPORT_QUARTER_RE.test(quarter)) throw badRequest('季度格式不正确，例如 2026Q3')
      const report = await wallet.incomeReportCsv(ctx(), currentOperator(request).id, quarter)
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${report.filename}"`)
        .header('cache-control', 'no-store')
        .send(report.csv)
    },
  })

  // The transfer provider's state notifications: the raw body is verified before anything is
  // read. 204 once applied (or already applied); 401 for a forgery (WeChat retries a 5xx).
  await app.register(async (notify) => {
    notify.removeAllContentTypeParsers()
    notify.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, body),
    )
    notify.post(
      TRANSFER_NOTIFY_PATH,
      { schema: { hide: true } as never },
      async (request, reply) => {
        try {
          const result = await app.providers.transfers.parseTransferNotification({
            headers: Object.fromEntries(
              Object.entries(request.headers).map(([key, value]) => [
                key.toLowerCase(),
                Array.isArray(value) ? value[0] : value,
              ]),
            ),
            rawBody: String(request.body ?? ''),
          })
          const outcome = await wallet.applyTransferResult(ctx(), result)
          request.log.info({ outcome, outBillNo: result.outBillNo }, 'transfer notification')
          return reply.code(outcome === 'amount-mismatch' ? 400 : 204).send()
        } catch (error) {
          if (error instanceof TransferNotificationRejected) {
            request.log.warn({ err: error }, 'transfer notification refused')
            return reply.code(401).send({ code: 'FAIL', message: '签名校验失败' })
          }
          if (error instanceof TransferNotConfigured)
            return reply.code(404).send({ code: 'FAIL', message: '提现未配置' })
          throw error
        }
      },
    )
  })
}

/** The audit line: the four limits in 元. */
function limitsDetail(limits: wallet.WalletLimits): string {
  return [
    `单笔 ${yuanOf(limits.perTransferFen)} 元`,
    `每人每日 ${yuanOf(limits.perDayFen)} 元`,
    `平台每日 ${yuanOf(limits.platformPerDayFen)} 元`,
    `审核门槛 ${yuanOf(limits.reviewAboveFen)} 元`,
  ].join('，')
}

export const INCOME_REPORT_PATH = '/main/operator/wallet/income-report.csv'
export { TRANSFER_NOTIFY_PATH }
