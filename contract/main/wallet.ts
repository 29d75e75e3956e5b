import { z } from 'zod/mini'
import { IdSchema, pageOf, PageQuerySchema } from '../common'
import { defineEndpoint } from '../endpoint'

/*
 * The expert's wallet (issue 22): income from consultations, withdrawals to WeChat 零钱, tax withheld.
 *
 * Every figure here is read from the ledger (server/src/domain/ledger): integer fen, double-entry,
 * append-only; a balance is the sum of its account's entries. The accounts an expert has:
 *   expert-pending     income of completed consultations still inside the 投诉 window (held)
 *   expert-available   settled income, which a withdrawal takes from
 *   expert-withdrawing a withdrawal's amount held while it is reviewed and paid (held)
 * A withdrawal holds its gross amount (available → withdrawing) in one atomic step, then pays through
 * the transfer provider (server/src/providers/transfers); SUCCESS posts the hold (net to the provider,
 * tax to the platform's tax payable), FAIL / CANCELLED / an operator's rejection voids it, back to the
 * balance, exactly once.
 *
 * Tax: individual income tax on 劳务报酬, withheld by the cumulative method of 税务总局公告2025年第16号,
 * computed when the withdrawal is made and shown before it is confirmed (WalletTaxSchema).
 *
 * Withdrawals go to WeChat 零钱 in the expert's certified real name only: 商家转账 pays 零钱, and a bank
 * card would need another product and another name check (README: Wallet).
 */

/** The least a withdrawal may be, in fen (¥1). */
export const WITHDRAW_MIN_FEN = 100

export const WITHDRAWAL_STATES = [
  'reviewing',
  'paying',
  'confirming',
  'paid',
  'failed',
  'cancelled',
] as const
export const WithdrawalStateSchema = z.enum(WITHDRAWAL_STATES)
export type WithdrawalState = z.infer<typeof WithdrawalStateSchema>
export const WITHDRAWAL_STATE_LABELS: Record<WithdrawalState, string> = {
  reviewing: '审核中',
  paying: '打款中',
  confirming: '待确认收款',
  paid: '已到账',
  failed: '失败 — 已退回余额',
  cancelled: '已取消',
}

/** 交易记录's kinds (its filter), one per kind of ledger transfer that touches an expert's accounts. */
export const TRADE_KINDS = [
  'income',
  'settlement',
  'refund',
  'withdrawal',
  'withdrawal-return',
  'tax',
  'reversal',
] as const
export const TradeKindSchema = z.enum(TRADE_KINDS)
export type TradeKind = z.infer<typeof TradeKindSchema>
export const TRADE_KIND_LABELS: Record<TradeKind, string> = {
  income: '咨询收入',
  settlement: '收入结算',
  refund: '退款扣回',
  withdrawal: '提现',
  'withdrawal-return': '提现退回',
  tax: '代扣个税',
  reversal: '冲正',
}

/** Every message the wallet shows, in one map. */
export const WALLET_MESSAGES = {
  notExpert: '认证专家才有钱包',
  amountFormat: '请输入正确的金额，最多两位小数',
  amountTooSmall: '提现金额至少 ¥1',
  amountOverBalance: '提现金额不能超过可提现余额',
  overPerTransfer: '单笔提现超过上限',
  overPerDay: '今日提现已达上限，请明天再试',
  overPlatformDay: '今日平台提现额度已满，请明天再试',
  oneAtATime: '已有一笔提现正在处理，完成后再提现',
  noRealName: '请先完成实名认证',
  /** 商家转账 pays the openid of the mini-program's WeChat login: an account without one cannot receive. */
  wechatLoginRequired: '请在微信小程序中登录后再提现到微信零钱',
  reauthRequired: '请输入登录密码或短信验证码以确认提现',
  reauthFailed: '密码或验证码不正确',
  notConfigured: '提现未配置',
  notFound: '提现记录不存在',
  cannotCancel: '这笔提现已在打款，不能取消',
  rejectReasonRequired: '请填写驳回原因',
  // 提现限额 (运营后台): each names its field; the app checks them before sending, in these words.
  limitPerTransfer: '单笔限额应为不少于 ¥1 的金额，最多两位小数',
  limitPerDay: '每人每日限额应为不少于 ¥1 的金额，最多两位小数',
  limitPlatformPerDay: '平台每日限额应为不少于 ¥1 的金额，最多两位小数',
  limitReviewAbove: '审核门槛应为不少于 ¥1 的金额，最多两位小数',
  limitPerDayWechat:
    '每人每日限额最多 ¥20000.00：微信支付商家转账给同一用户每日最多付 20,000 元，不可提升',
  limitPerTransferOverDay: '单笔限额不能超过每人每日限额',
  limitPerDayOverPlatform: '每人每日限额不能超过平台每日限额',
} as const

/** How the tax of one withdrawal was computed (all figures of the calendar year, integer fen). */
export const WalletTaxSchema = z.object({
  year: z.number(),
  /** Income paid out this year before this withdrawal, and with it. */
  incomeBeforeFen: z.number(),
  incomeFen: z.number(),
  /** Months of the year in which income was paid out, this one included. */
  months: z.number(),
  /** 20% of cumulative income. */
  expensesFen: z.number(),
  /** 5,000 元 × months. */
  deductionFen: z.number(),
  /** Cumulative taxable income (never below zero). */
  taxableFen: z.number(),
  /** The withholding table's rate (percent) and quick deduction for that taxable income. */
  ratePercent: z.number(),
  quickDeductionFen: z.number(),
  /** Cumulative tax due, tax already withheld this year, and this withdrawal's tax (never below 0). */
  dueFen: z.number(),
  withheldBeforeFen: z.number(),
  taxFen: z.number(),
})
export type WalletTax = z.infer<typeof WalletTaxSchema>

export const PayoutTargetSchema = z.object({
  provider: z.enum(['wechatpay', 'demo', 'unconfigured']),
  /** Whether withdrawing works at all; false: 提现未配置. */
  configured: z.boolean(),
  /** 微信零钱（张*三）: the certified real name, masked. */
  label: z.string(),
})

export const WalletLimitsSchema = z.object({
  minFen: z.number(),
  perTransferFen: z.number(),
  perDayFen: z.number(),
  /** What this expert may still withdraw today (per day limit less today's withdrawals). */
  leftTodayFen: z.number(),
  /** Above this a withdrawal waits for an operator's 审核. */
  reviewAboveFen: z.number(),
})

export const WalletOverviewSchema = z.object({
  availableFen: z.number(),
  /** Income of completed consultations still inside the 投诉 window. */
  pendingFen: z.number(),
  /** Withdrawals being reviewed or paid. */
  withdrawingFen: z.number(),
  /** Income credited this calendar month (China time) and ever, after refunds. */
  monthIncomeFen: z.number(),
  totalIncomeFen: z.number(),
  /** Tax withheld this year. */
  yearTaxFen: z.number(),
  payout: PayoutTargetSchema,
  limits: WalletLimitsSchema,
})
export type WalletOverview = z.infer<typeof WalletOverviewSchema>

export const WalletTradeSchema = z.object({
  /** The ledger transfer's id. */
  id: IdSchema,
  kind: TradeKindSchema,
  kindLabel: z.string(),
  /** 图文咨询 · 张*三, 提现至微信零钱, ... */
  title: z.string(),
  /** Signed fen: what this movement did to the expert's money (pending + available + withdrawing). */
  amountFen: z.number(),
  /** Where it landed: 待结算 / 可提现 / 提现中. */
  accountLabel: z.string(),
  consultationId: z.nullable(IdSchema),
  withdrawalId: z.nullable(IdSchema),
  at: z.string(),
})
export type WalletTrade = z.infer<typeof WalletTradeSchema>

export const WalletTradeDetailSchema = z.extend(WalletTradeSchema, {
  /** The consultation's price split when it is one: price, platform share, the expert's part. */
  consultation: z.nullable(
    z.object({
      id: IdSchema,
      serviceLabel: z.string(),
      personMasked: z.string(),
      priceFen: z.number(),
      platformFen: z.number(),
      expertFen: z.number(),
      stateLabel: z.string(),
    }),
  ),
  /** Every entry of the transfer on the expert's accounts. */
  entries: z.array(z.object({ accountLabel: z.string(), amountFen: z.number() })),
})
export type WalletTradeDetail = z.infer<typeof WalletTradeDetailSchema>

export const WithdrawalSchema = z.object({
  id: IdSchema,
  state: WithdrawalStateSchema,
  stateLabel: z.string(),
  grossFen: z.number(),
  taxFen: z.number(),
  netFen: z.number(),
  tax: WalletTaxSchema,
  /** 微信零钱（张*三）. */
  targetLabel: z.string(),
  /** Our bill number (shown for support: 提现单号). */
  billNo: z.string(),
  /** Why it failed or was rejected, in Chinese. */
  reason: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  paidAt: z.nullable(z.string()),
  /** confirming: the mini-program confirms with wx.requestMerchantTransfer (H5: open in WeChat). */
  canConfirm: z.boolean(),
  canCancel: z.boolean(),
})
export type Withdrawal = z.infer<typeof WithdrawalSchema>

/** What the amount field accepts (SPEC section 5's amount: up to 2 decimals). */
export const WithdrawAmountSchema = z
  .string({ error: WALLET_MESSAGES.amountFormat })
  .check(z.regex(/^(0|[1-9]\d{0,8})(\.\d{1,2})?$/, WALLET_MESSAGES.amountFormat))

// --- Expert calls --------------------------------------------------------------------------------

export const getWallet = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/wallet',
  input: z.object({}),
  output: WalletOverviewSchema,
  auth: true,
  role: 'expert',
  summary: '我的钱包（余额、待结算、提现中、收入）',
})

export const listWalletTrades = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/wallet/trades',
  input: z.extend(PageQuerySchema, {
    kind: z.optional(TradeKindSchema),
    /** YYYY-MM, China time. */
    month: z.optional(z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式不正确'))),
  }),
  output: pageOf(WalletTradeSchema),
  auth: true,
  role: 'expert',
  summary: '交易记录（按类型、月份）',
})

export const getWalletTrade = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/wallet/trades/:tradeId',
  input: z.object({ tradeId: IdSchema }),
  output: WalletTradeDetailSchema,
  auth: true,
  role: 'expert',
  summary: '交易详情',
})

export const quoteWithdrawal = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/wallet/withdrawals/quote',
  input: z.object({ amount: WithdrawAmountSchema }),
  /** What confirming would do: gross, tax, net, whether it waits for 审核; or why it cannot. */
  output: z.object({
    grossFen: z.number(),
    taxFen: z.number(),
    netFen: z.number(),
    tax: WalletTaxSchema,
    needsReview: z.boolean(),
    /** null: it can go; else the reason in Chinese (WALLET_MESSAGES). */
    refused: z.nullable(z.string()),
  }),
  auth: true,
  role: 'expert',
  summary: '提现试算（个税与实到金额）',
})

export const createWithdrawal = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/wallet/withdrawals',
  input: z.object({
    amount: WithdrawAmountSchema,
    /** The app's id for this attempt: a retry with the same one answers the same withdrawal. */
    clientId: z.string().check(z.minLength(8), z.maxLength(64)),
    password: z.optional(z.string().check(z.maxLength(64))),
    smsCode: z.optional(z.string().check(z.maxLength(6))),
  }),
  output: WithdrawalSchema,
  auth: true,
  role: 'expert',
  summary: '申请提现（再次验证身份）',
})

export const listWithdrawals = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/wallet/withdrawals',
  input: PageQuerySchema,
  output: pageOf(WithdrawalSchema),
  auth: true,
  role: 'expert',
  summary: '提现记录',
})

export const getWithdrawal = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/wallet/withdrawals/:withdrawalId',
  input: z.object({ withdrawalId: IdSchema }),
  output: WithdrawalSchema,
  auth: true,
  role: 'expert',
  summary: '提现详情',
})

export const confirmWithdrawal = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/wallet/withdrawals/:withdrawalId/confirm',
  input: z.object({ withdrawalId: IdSchema }),
  /** wx.requestMerchantTransfer's parameters (mini-program); demo: the demo confirms on the server. */
  output: z.object({
    kind: z.enum(['wechat', 'demo']),
    mchId: z.nullable(z.string()),
    appId: z.nullable(z.string()),
    packageInfo: z.nullable(z.string()),
    withdrawal: WithdrawalSchema,
  }),
  auth: true,
  role: 'expert',
  summary: '确认收款（待确认收款的提现）',
})

export const syncWithdrawal = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/wallet/withdrawals/:withdrawalId/sync',
  input: z.object({ withdrawalId: IdSchema }),
  output: WithdrawalSchema,
  auth: true,
  role: 'expert',
  summary: '刷新提现状态（向支付机构查询）',
})

export const cancelWithdrawal = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/wallet/withdrawals/:withdrawalId/cancel',
  input: z.object({ withdrawalId: IdSchema }),
  output: WithdrawalSchema,
  auth: true,
  role: 'expert',
  summary: '取消提现（审核中或待确认收款）',
})

// --- Operators -----------------------------------------------------------------------------------

/** The least any of the wallet's limits may be, in fen (¥1, the least withdrawal). */
export const WALLET_LIMIT_MIN_FEN = 100
/** WeChat Pay 商家转账 pays one person at most 20,000 元 a day, and that cannot be raised. */
export const WECHAT_PERSON_DAY_MAX_FEN = 2_000_000

export const WALLET_LIMIT_FIELDS = [
  'perTransferFen',
  'perDayFen',
  'platformPerDayFen',
  'reviewAboveFen',
] as const
export type WalletLimitField = (typeof WALLET_LIMIT_FIELDS)[number]
export const WALLET_LIMIT_LABELS: Record<WalletLimitField, string> = {
  perTransferFen: '单笔限额',
  perDayFen: '每人每日限额',
  platformPerDayFen: '平台每日限额',
  reviewAboveFen: '审核门槛',
}

/** One limit: integer fen (a safe integer), at least ¥1; `message` names the field. */
const limitFen = (message: string) =>
  z
    .number({ error: message })
    .check(
      z.int(message),
      z.minimum(WALLET_LIMIT_MIN_FEN, message),
      z.maximum(Number.MAX_SAFE_INTEGER, message),
    )

/** The wallet's limits as an operator reads them (server/src/domain/wallet/settings.ts). */
export const WalletLimitSettingsSchema = z.object({
  /** One withdrawal at most (the merchant's 单笔限额 in 商户平台 must be at least this). */
  perTransferFen: z.number(),
  /** One expert per China day; WeChat pays one person at most 20,000 元 a day. */
  perDayFen: z.number(),
  /** Every expert together per China day (the merchant's daily limit in 商户平台). */
  platformPerDayFen: z.number(),
  /** Above this a withdrawal waits for an operator's 审核 (above perTransferFen: none does). */
  reviewAboveFen: z.number(),
})
export type WalletLimitSettings = z.infer<typeof WalletLimitSettingsSchema>

/**
 * What an operator may set: each at least ¥1, per transfer ≤ per expert per day ≤ platform per
 * day, per expert per day at most WeChat's 20,000 元. A review threshold above the per-transfer
 * limit is allowed: no withdrawal then waits for 审核.
 */
export const WalletLimitSettingsInputSchema = z
  .object({
    perTransferFen: limitFen(WALLET_MESSAGES.limitPerTransfer),
    perDayFen: limitFen(WALLET_MESSAGES.limitPerDay).check(
      z.maximum(WECHAT_PERSON_DAY_MAX_FEN, WALLET_MESSAGES.limitPerDayWechat),
    ),
    platformPerDayFen: limitFen(WALLET_MESSAGES.limitPlatformPerDay),
    reviewAboveFen: limitFen(WALLET_MESSAGES.limitReviewAbove),
  })
  .check(
    z.refine((limits) => limits.perTransferFen <= limits.perDayFen, {
      message: WALLET_MESSAGES.limitPerTransferOverDay,
      path: ['perTransferFen'],
    }),
    z.refine((limits) => limits.perDayFen <= limits.platformPerDayFen, {
      message: WALLET_MESSAGES.limitPerDayOverPlatform,
      path: ['perDayFen'],
    }),
  )

export const operatorGetWalletLimits = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/wallet/limits',
  input: z.object({}),
  output: WalletLimitSettingsSchema,
  auth: true,
  role: 'operator',
  summary: '提现限额（运营）',
})

export const operatorSetWalletLimits = defineEndpoint({
  service: 'main',
  method: 'PUT',
  path: '/operator/wallet/limits',
  input: WalletLimitSettingsInputSchema,
  output: WalletLimitSettingsSchema,
  auth: true,
  role: 'operator',
  summary: '设置提现限额（只影响之后申请的新提现；记入操作日志）',
})

export const OperatorWithdrawalSchema = z.extend(WithdrawalSchema, {
  expert: z.object({ id: IdSchema, name: z.string(), hospitalName: z.string() }),
  /** The provider's code when it refused or failed (for support). */
  providerCode: z.nullable(z.string()),
})

export const operatorListWithdrawals = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/withdrawals',
  input: z.extend(PageQuerySchema, { state: z.optional(WithdrawalStateSchema) }),
  output: z.extend(pageOf(OperatorWithdrawalSchema), {
    counts: z.record(WithdrawalStateSchema, z.number()),
  }),
  auth: true,
  role: 'operator',
  summary: '提现审核与记录（运营）',
})

export const operatorDecideWithdrawal = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/withdrawals/:withdrawalId/decision',
  input: z.object({
    withdrawalId: IdSchema,
    approve: z.boolean(),
    /** Required to reject; shown to the expert. */
    reason: z.optional(z.string().check(z.maxLength(200))),
  }),
  output: OperatorWithdrawalSchema,
  auth: true,
  role: 'operator',
  summary: '审核提现（通过 / 驳回并说明原因）',
})

export const ReconciliationSchema = z.object({
  date: z.string(),
  /** When it was compared, null when never. */
  checkedAt: z.nullable(z.string()),
  providerCount: z.number(),
  ledgerCount: z.number(),
  /** Each difference: a bill in one side only, or with another state or amount. */
  differences: z.array(
    z.object({
      outBillNo: z.string(),
      problem: z.enum(['missing-in-ledger', 'missing-at-provider', 'state', 'amount']),
      providerState: z.nullable(z.string()),
      ledgerState: z.nullable(z.string()),
      providerFen: z.nullable(z.number()),
      ledgerFen: z.nullable(z.number()),
    }),
  ),
})
export type Reconciliation = z.infer<typeof ReconciliationSchema>

export const operatorReconcile = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/operator/wallet/reconciliation',
  /** Compares the provider's statement of that day (China time) with the ledger and keeps the result. */
  input: z.object({ date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式不正确')) }),
  output: ReconciliationSchema,
  auth: true,
  role: 'operator',
  summary: '对账（支付机构日账单与账本）',
})

export const operatorListReconciliations = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/operator/wallet/reconciliation',
  input: PageQuerySchema,
  output: pageOf(ReconciliationSchema),
  auth: true,
  role: 'operator',
  summary: '对账结果（有差异的在前）',
})

/*
 * The quarterly income report per expert (国务院令第810号 art. 4: identity and income) is a CSV
 * download, GET /main/operator/wallet/income-report.csv?quarter=2026Q3 (operator only, audited): not
 * a JSON call, so not an endpoint here.
 */
export const INCOME_REPORT_QUARTER_RE = /^\d{4}Q[1-4]$/
