import { createHash } from 'node:crypto'
import { gunzipSync } from 'node:zlib'
import { z } from 'zod'
import type { WechatPayAccountType, WechatPayConfig } from '../../config'
import {
  createWechatPayClient,
  DEFAULT_TIMEOUT_MS,
  encryptSensitive,
  isoOrNull,
  WechatPayApiError,
  type WechatPayLog,
  WechatPayNotificationInvalid,
} from '../wechatpay-v3'
import {
  type ConfirmParams,
  FINAL_TRANSFER_STATES,
  type RawTransferNotification,
  type StatementLine,
  type TransferInput,
  TransferNotificationRejected,
  type TransferProvider,
  TransferRefused,
  type TransferResult,
  TRANSFER_STATES,
  TransferUnclear,
} from './types'

/*
 * WeChat Pay 商家转账 (用户确认模式), APIv3, on the merchant of WECHATPAY_*: the signing, answer
 * verification and notification decryption are providers/wechatpay-v3's, shared with payments.
 * See WECHATPAY.md for what each call sends, how answers map, and why.
 *
 * The rule everything here serves: a bill number is paid at most once. An answer we cannot believe
 * is TransferUnclear (retry with the same out_bill_no); a refusal is TransferRefused only after a
 * query has shown that WeChat has no bill under that number, as WeChat's documentation asks ("当查询
 * 原订单结果明确为失败时再更换商户订单号进行重试").
 */

/** 佣金报酬: the scene whose report fields TransferInput.report carries (岗位类型, 报酬说明). */
export const TRANSFER_SCENE_ID = '1005'
export const TRANSFER_UNCLEAR = '微信支付暂未给出明确结果，将以同一单号核实后继续'
/** From 2,000 元 WeChat requires user_name; we send it on every transfer (WECHATPAY.md). */
export const USER_NAME_REQUIRED_FEN = 200_000
/** 资金账单 lines that are 商家转账 (业务名称 or 业务类型); WECHATPAY.md says what is known. */
export const TRANSFER_BUSINESS_NAMES: readonly string[] = ['商家转账', '企业付款']

const TRANSFER_BILLS = '/v3/fund-app/mch-transfer/transfer-bills'

export type TransferLog = WechatPayLog

export interface WechatPayTransferOptions {
  log: TransferLog
  now?: () => Date
  /** Per request, answer included; default 10 s. */
  timeoutMs?: number
  /** Default: the global fetch. */
  fetch?: typeof fetch
  /** Which 资金账单 lines count as transfers; default TRANSFER_BUSINESS_NAMES. */
  statementBusinessNames?: readonly string[]
}

/** Codes that say "not now", not "no": the outcome is unknown, retry with the same bill number. */
const UNCLEAR_CODES = new Set(['SYSTEM_ERROR', 'FREQUENCY_LIMITED', 'RATE_LIMITED'])

/** Chinese texts for refusals (an expert may read them on a failed withdrawal). */
const REFUSALS: Record<string, string> = {
  NOT_ENOUGH: '平台付款账户余额不足，本次提现未发出，金额已退回余额',
  QUOTA_EXCEED: '超出微信支付的转账额度，本次提现未发出，金额已退回余额',
  INVALID_REQUEST: '提现不符合微信支付的转账规则（如超出单日额度），本次未发出，金额已退回余额',
  PARAM_ERROR: '提现信息不符合微信支付的要求，本次未发出，金额已退回余额',
  NO_AUTH: '平台尚未开通微信商家转账，本次提现未发出，金额已退回余额',
  SIGN_ERROR: '平台的微信支付配置有误，本次提现未发出，金额已退回余额',
  OPENID_MISSING: '请在微信小程序中登录后再提现到微信零钱',
  USER_NAME_MISSING: '提现 2,000 元及以上需要实名姓名，请先完成实名认证',
  NOT_FOUND: '微信支付没有这笔提现',
}
const DEFAULT_REFUSAL = '微信支付拒绝了这笔提现，本次未发出，金额已退回余额'
const CANCEL_REFUSED = '这笔提现已在到账途中，无法撤销'

// --- The shapes read from WeChat (unknown fields are dropped) -----------------------------------

const State = z.enum(TRANSFER_STATES)

/** 发起转账's answer. */
const Created = z.object({
  out_bill_no: z.string(),
  transfer_bill_no: z.string().optional(),
  create_time: z.string().optional(),
  state: State,
  fail_reason: z.string().optional(),
  package_info: z.string().optional(),
})

/** 商户单号查询转账单's answer. */
const Queried = z.object({
  mch_id: z.string(),
  out_bill_no: z.string(),
  transfer_bill_no: z.string().optional(),
  state: State,
  transfer_amount: z.number().int(),
  fail_reason: z.string().optional(),
  create_time: z.string().optional(),
  update_time: z.string().optional(),
})

/** 撤销转账's answer. */
const Cancelled = z.object({
  out_bill_no: z.string(),
  transfer_bill_no: z.string().optional(),
  state: State,
  update_time: z.string().optional(),
})

/** MCHTRANSFER.BILL.FINISHED's resource (documented as mchid; the query says mch_id: both read). */
const Finished = z.object({
  out_bill_no: z.string(),
  transfer_bill_no: z.string(),
  state: State,
  mchid: z.string().optional(),
  mch_id: z.string().optional(),
  transfer_amount: z.number().int(),
  fail_reason: z.string().optional(),
  create_time: z.string().optional(),
  update_time: z.string().optional(),
})

/** 申请资金账单's answer. */
const BillApplication = z.object({
  hash_type: z.string(),
  hash_value: z.string(),
  download_url: z.string(),
})

// --- 资金账单 ------------------------------------------------------------------------------------

/** One line of a 资金账单 (every kind of money movement, not only transfers). */
export interface FundFlowLine {
  /** 记账时间 (Beijing), as ISO UTC. */
  at: string
  /** 微信支付业务单号 (a transfer's transfer_bill_no). */
  wechatNo: string
  /** 资金流水单号. */
  flowNo: string
  /** 业务名称, 业务类型. */
  business: string
  type: string
  direction: '收入' | '支出'
  fen: number
  /** 备注. */
  remark: string
  /** 业务凭证号 (a transfer's out_bill_no). */
  voucher: string
}

export class FundFlowBillInvalid extends Error {
  override name = 'FundFlowBillInvalid'
}

const COLUMNS = {
  at: '记账时间',
  wechatNo: '微信支付业务单号',
  flowNo: '资金流水单号',
  business: '业务名称',
  type: '业务类型',
  direction: '收支类型',
  amount: '收支金额(元)',
  remark: '备注',
  voucher: '业务凭证号',
} as const

/** 元 with up to two decimals, as integer fen (no floating point on the way). */
function fenOf(text: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim())
  if (!match) throw new FundFlowBillInvalid(`not an amount: ${text}`)
  const fen = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'))
  return match[1] ? -fen : fen
}

/** A count the summary may write as 20 or 20.0. */
function countOf(text: string): number {
  const match = /^(\d+)(?:\.0+)?$/.exec(text.trim())
  if (!match) throw new FundFlowBillInvalid(`not a count: ${text}`)
  return Number(match[1])
}

/** A row's fields: each starts with ` (so Excel keeps long numbers); a header has none. */
function fieldsOf(row: string): string[] {
  return row.startsWith('`') ? row.slice(1).split(',`') : row.split(',')
}

/** Header names compared with ASCII parentheses (files write both 收支金额(元) and 收支金额（元）). */
const normalName = (name: string) => name.trim().replace(/（/g, '(').replace(/）/g, ')')

/**
 * Parses a 资金账单 file: the header, the detail lines, the summary header and the summary line,
 * which must agree with the details (count of lines, of 收入 and 支出, and their sums), so a file cut
 * short or edited is refused (FundFlowBillInvalid), not half read.
 */
export function parseFundFlowBill(text: string): FundFlowLine[] {
  const rows = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((row) => row.trim() !== '')
  const summaryAt = rows.findIndex((row) => normalName(row).startsWith('资金流水总笔数'))
  if (rows.length < 3 || summaryAt < 1 || summaryAt !== rows.length - 2) {
    throw new FundFlowBillInvalid('no header, or the summary is not the last two rows')
  }
  const header = fieldsOf(rows[0]!).map(normalName)
  const index = Object.fromEntries(
    Object.entries(COLUMNS).map(([key, name]) => [key, header.indexOf(name)]),
  ) as Record<keyof typeof COLUMNS, number>
  const missing = Object.entries(index).filter(([, at]) => at < 0)
  if (missing.length > 0) {
    throw new FundFlowBillInvalid(`missing columns: ${missing.map(([key]) => key).join(', ')}`)
  }
  const lines = rows.slice(1, summaryAt).map((row): FundFlowLine => {
    const fields = fieldsOf(row)
    if (fields.length !== header.length) throw new FundFlowBillInvalid('a row has other columns')
    const field = (key: keyof typeof COLUMNS) => fields[index[key]]!.trim()
    const direction = field('direction')
    if (direction !== '收入' && direction !== '支出') {
      throw new FundFlowBillInvalid(`收支类型 ${direction}`)
    }
    const at = new Date(`${field('at').replace(' ', 'T')}+08:00`)
    if (!/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(field('at')) || Number.isNaN(at.getTime())) {
      throw new FundFlowBillInvalid(`记账时间 ${field('at')}`)
    }
    const fen = fenOf(field('amount'))
    if (fen < 0) throw new FundFlowBillInvalid('a negative 收支金额')
    return {
      at: at.toISOString(),
      wechatNo: field('wechatNo'),
      flowNo: field('flowNo'),
      business: field('business'),
      type: field('type'),
      direction,
      fen,
      remark: field('remark'),
      voucher: field('voucher'),
    }
  })
  const summary = fieldsOf(rows[summaryAt + 1]!)
  if (summary.length < 5) throw new FundFlowBillInvalid('short summary')
  const of = (direction: FundFlowLine['direction']) =>
    lines.filter((line) => line.direction === direction)
  const sum = (some: FundFlowLine[]) => some.reduce((total, line) => total + line.fen, 0)
  const agrees =
    countOf(summary[0]!) === lines.length &&
    countOf(summary[1]!) === of('收入').length &&
    fenOf(summary[2]!) === sum(of('收入')) &&
    countOf(summary[3]!) === of('支出').length &&
    fenOf(summary[4]!) === sum(of('支出'))
  if (!agrees) throw new FundFlowBillInvalid('the summary does not match the lines')
  return lines
}

/**
 * The transfer lines of a 资金账单 as StatementLine: 支出 (money left to the user) → SUCCESS,
 * 收入 (money back: the fund bill cannot tell FAIL from CANCELLED) → FAIL.
 */
export function transferStatementLines(
  lines: FundFlowLine[],
  businessNames: readonly string[] = TRANSFER_BUSINESS_NAMES,
): StatementLine[] {
  return lines
    .filter(
      (line) =>
        (businessNames.includes(line.business) || businessNames.includes(line.type)) &&
        /^[A-Za-z0-9]{5,32}$/.test(line.voucher),
    )
    .map((line) => ({
      outBillNo: line.voucher,
      billNo: line.wechatNo || null,
      state: line.direction === '支出' ? 'SUCCESS' : 'FAIL',
      amountFen: line.fen,
      at: line.at,
    }))
}

// --- The adapter ---------------------------------------------------------------------------------

export function wechatPayTransferProvider(
  config: WechatPayConfig,
  {
    log,
    now = () => new Date(),
    timeoutMs = DEFAULT_TIMEOUT_MS,
    fetch,
    statementBusinessNames = TRANSFER_BUSINESS_NAMES,
  }: WechatPayTransferOptions,
): TransferProvider {
  const client = createWechatPayClient(config, {
    log,
    now,
    timeoutMs,
    ...(fetch ? { fetch } : {}),
  })
  const accountType: WechatPayAccountType = config.transferAccountType ?? 'OPERATION'
  const unclear = () => new TransferUnclear(TRANSFER_UNCLEAR)
  const refused = (code: string) => new TransferRefused(REFUSALS[code] ?? DEFAULT_REFUSAL, code)

  /**
   * One signed call: the verified JSON (null: 204, or a signed 404 when allowed). Unreachable,
   * unverifiable and "not now" answers (SYSTEM_ERROR, FREQUENCY_LIMITED) throw TransferUnclear; any
   * other refusal comes back as WechatPayApiError for the caller to judge.
   */
  async function call(
    method: 'GET' | 'POST',
    pathAndQuery: string,
    body?: object,
    options: { notFoundIsNull?: boolean; headers?: Record<string, string> } = {},
  ): Promise<unknown> {
    try {
      return await client.call(method, pathAndQuery, body, options)
    } catch (error) {
      if (error instanceof WechatPayApiError && !UNCLEAR_CODES.has(error.code)) throw error
      throw unclear()
    }
  }

  /** A verified answer of the expected shape, or TransferUnclear. */
  function shaped<T>(schema: z.ZodType<T>, json: unknown, what: string): T {
    const parsed = schema.safeParse(json)
    if (!parsed.success) {
      log.error({ what }, '微信支付转账应答格式不符')
      throw unclear()
    }
    return parsed.data
  }

  const billPath = (outBillNo: string) =>
    `${TRANSFER_BILLS}/out-bill-no/${encodeURIComponent(outBillNo)}`

  async function queryTransfer(outBillNo: string): Promise<TransferResult | null> {
    let json: unknown
    try {
      json = await call('GET', billPath(outBillNo), undefined, { notFoundIsNull: true })
    } catch (error) {
      // A query refused (no right, bad number) says nothing about the bill: not a null.
      if (error instanceof WechatPayApiError) throw unclear()
      throw error
    }
    if (json === null) return null
    const data = shaped(Queried, json, 'transfer bill')
    if (data.mch_id !== config.mchid || data.out_bill_no !== outBillNo) {
      log.error({ outBillNo }, '微信支付转账查单应答与请求不符')
      throw unclear()
    }
    return {
      outBillNo,
      billNo: data.transfer_bill_no ?? null,
      state: data.state,
      amountFen: data.transfer_amount,
      packageInfo: null,
      failReason: data.fail_reason ?? null,
      updatedAt: isoOrNull(data.update_time ?? data.create_time),
    }
  }

  /**
   * WeChat refused a create: it asks to query the bill before trusting that (its documentation: a
   * non-200 answer never justifies a new bill number until the query says so). A bill under the
   * number is the answer; none (a signed 404) makes the refusal final; anything else is unclear.
   */
  async function settleRefusal(
    input: TransferInput,
    error: WechatPayApiError,
  ): Promise<TransferResult> {
    log.warn({ outBillNo: input.outBillNo, code: error.code }, '微信支付拒绝了转账，查询原单确认')
    const existing = await queryTransfer(input.outBillNo)
    if (!existing) throw refused(error.code)
    if (existing.amountFen !== input.amountFen) {
      log.error(
        { outBillNo: input.outBillNo, askedFen: input.amountFen, billFen: existing.amountFen },
        '微信支付已有此单号的转账，金额与本次不同',
      )
    } else {
      log.warn({ outBillNo: input.outBillNo, state: existing.state }, '微信支付已有此单号的转账')
    }
    return existing
  }

  return {
    name: 'wechatpay',
    configured: true,

    async createTransfer(input: TransferInput): Promise<TransferResult> {
      if (!/^[A-Za-z0-9]{5,32}$/.test(input.outBillNo)) {
        throw new TransferRefused(REFUSALS.PARAM_ERROR!, 'PARAM_ERROR')
      }
      if (!Number.isInteger(input.amountFen) || input.amountFen <= 0) {
        throw new TransferRefused(REFUSALS.PARAM_ERROR!, 'PARAM_ERROR')
      }
      if (!input.openid) throw new TransferRefused(REFUSALS.OPENID_MISSING!, 'OPENID_MISSING')
      const realName = input.realName.trim()
      if (!realName && input.amountFen >= USER_NAME_REQUIRED_FEN) {
        throw new TransferRefused(REFUSALS.USER_NAME_MISSING!, 'USER_NAME_MISSING')
      }
      const body = {
        appid: config.appid,
        out_bill_no: input.outBillNo,
        transfer_scene_id: TRANSFER_SCENE_ID,
        openid: input.openid,
        // Always when known, not only from 2,000 元: WeChat then pays only the person of that real
        // name, and an electronic receipt (电子回单) exists for the bill (WECHATPAY.md).
        ...(realName ? { user_name: encryptSensitive(realName, config.platformPublicKey) } : {}),
        transfer_amount: input.amountFen,
        transfer_remark: input.remark,
        ...(input.notifyUrl ? { notify_url: input.notifyUrl } : {}),
        transfer_scene_report_infos: [
          { info_type: '岗位类型', info_content: input.report.role },
          { info_type: '报酬说明', info_content: input.report.description },
        ],
      }
      let json: unknown
      try {
        json = await call('POST', TRANSFER_BILLS, body, {
          // The key the sensitive field is encrypted with.
          ...(realName ? { headers: { 'Wechatpay-Serial': config.platformPublicKeyId } } : {}),
        })
      } catch (error) {
        if (!(error instanceof WechatPayApiError)) throw error
        return await settleRefusal(input, error)
      }
      const data = shaped(Created, json, 'transfer bill')
      if (data.out_bill_no !== input.outBillNo) {
        log.error({ outBillNo: input.outBillNo }, '微信支付转账应答与请求不符')
        throw unclear()
      }
      if (data.state === 'WAIT_USER_CONFIRM' && !data.package_info) {
        log.warn({ outBillNo: input.outBillNo }, '微信支付转账待确认，但应答没有 package_info')
      }
      return {
        outBillNo: input.outBillNo,
        billNo: data.transfer_bill_no ?? null,
        state: data.state,
        amountFen: input.amountFen,
        packageInfo: data.state === 'WAIT_USER_CONFIRM' ? (data.package_info ?? null) : null,
        failReason: data.fail_reason ?? null,
        updatedAt: isoOrNull(data.create_time),
      }
    },

    queryTransfer,

    async cancelTransfer(outBillNo: string): Promise<TransferResult> {
      // The query first: the amount (the cancel answer has none), and no cancel for a bill that
      // is already over.
      const current = await queryTransfer(outBillNo)
      if (!current) throw refused('NOT_FOUND')
      if (FINAL_TRANSFER_STATES.includes(current.state) || current.state === 'CANCELING') {
        return current
      }
      let json: unknown
      try {
        json = await call('POST', `${billPath(outBillNo)}/cancel`)
      } catch (error) {
        if (!(error instanceof WechatPayApiError)) throw error
        if (error.code === 'NOT_FOUND') throw refused('NOT_FOUND')
        throw new TransferRefused(CANCEL_REFUSED, error.code)
      }
      const data = shaped(Cancelled, json, 'transfer cancel')
      if (data.out_bill_no !== outBillNo) {
        log.error({ outBillNo }, '微信支付撤销转账应答与请求不符')
        throw unclear()
      }
      return {
        ...current,
        billNo: data.transfer_bill_no ?? current.billNo,
        state: data.state,
        updatedAt: isoOrNull(data.update_time) ?? current.updatedAt,
      }
    },

    confirmParams(result: TransferResult): ConfirmParams | null {
      if (result.state !== 'WAIT_USER_CONFIRM' || !result.packageInfo) return null
      return { mchId: config.mchid, appId: config.appid, packageInfo: result.packageInfo }
    },

    async parseTransferNotification(notification: RawTransferNotification) {
      const reject = (why: string): never => {
        log.warn({ why }, '微信支付转账通知验证失败，已拒绝')
        throw new TransferNotificationRejected(why)
      }
      let opened: ReturnType<typeof client.openNotification>
      try {
        opened = client.openNotification(notification, 'mch_payment')
      } catch (error) {
        if (error instanceof WechatPayNotificationInvalid) {
          throw new TransferNotificationRejected(error.message)
        }
        throw error
      }
      if (!opened.eventType.startsWith('MCHTRANSFER.BILL.')) {
        reject(`not a transfer bill notification (${opened.eventType})`)
      }
      const parsed = Finished.safeParse(opened.resource)
      if (!parsed.success) return reject('unexpected transfer bill shape')
      const data = parsed.data
      if ((data.mchid ?? data.mch_id) !== config.mchid) {
        log.warn({ outBillNo: data.out_bill_no }, '微信支付转账通知的商户号不符')
        return reject('mchid is not ours')
      }
      return {
        outBillNo: data.out_bill_no,
        billNo: data.transfer_bill_no,
        state: data.state,
        amountFen: data.transfer_amount,
        packageInfo: null,
        failReason: data.fail_reason ?? null,
        updatedAt: isoOrNull(data.update_time ?? data.create_time),
      }
    },

    async dailyStatement(date: string): Promise<StatementLine[]> {
      const day = new Date(`${date}T00:00:00+08:00`)
      if (!/^\d{4}-\d\d-\d\d$/.test(date) || Number.isNaN(day.getTime())) {
        throw new TransferRefused('账单日期应为 YYYY-MM-DD', 'PARAM_ERROR')
      }
      let json: unknown
      try {
        json = await call(
          'GET',
          `/v3/bill/fundflowbill?bill_date=${date}&account_type=${accountType}&tar_type=GZIP`,
        )
      } catch (error) {
        if (!(error instanceof WechatPayApiError)) throw error
        // No money moved in the account that day: an empty statement, not an error.
        if (error.code === 'NO_STATEMENT_EXIST') return []
        // Not generated yet (WeChat makes it from 9:00 the next day): ask again later.
        if (error.code === 'STATEMENT_CREATING') throw unclear()
        throw new TransferRefused(`微信支付无法提供 ${date} 的资金账单`, error.code)
      }
      const application = shaped(BillApplication, json, 'fund flow bill')
      if (application.hash_type.toUpperCase() !== 'SHA1') {
        log.error({ hashType: application.hash_type }, '微信支付资金账单的摘要算法未知')
        throw unclear()
      }
      const bytes = await client.download(application.download_url).catch(() => {
        throw unclear()
      })
      let file: Buffer
      try {
        file = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes
      } catch {
        log.error({ date }, '微信支付资金账单无法解压，已拒绝')
        throw unclear()
      }
      // The digest is of the file as generated (gzip undone); the download itself is not signed.
      const digest = createHash('sha1').update(file).digest('hex')
      if (digest !== application.hash_value.toLowerCase()) {
        log.error({ date }, '微信支付资金账单摘要不符，已拒绝')
        throw unclear()
      }
      let lines: FundFlowLine[]
      try {
        lines = parseFundFlowBill(file.toString('utf8'))
      } catch (error) {
        log.error({ date, why: (error as Error).message }, '微信支付资金账单格式不符')
        throw unclear()
      }
      return transferStatementLines(lines, statementBusinessNames)
    },
  }
}
