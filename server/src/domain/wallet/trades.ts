import { sql } from 'kysely'
import { CONSULT_STATE_LABELS, type ConsultState } from '@contract/main/consultations'
import { EXPERT_SERVICE_RULES, type ConsultService } from '@contract/main/expert-profiles'
import {
  TRADE_KIND_LABELS,
  type TradeKind,
  type WalletTrade,
  type WalletTradeDetail,
} from '@contract/main/wallet'
import type { DB } from '../../db'
import { page, type PageQuery } from '../../db/paging'
import { notFound } from '../../http/errors'
import { maskName } from '../../masking'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { WalletContext } from './context'
import { chinaRange, yuan } from './model'

/*
 * 交易记录: the ledger transfers that touch the expert's accounts (待结算 expert-pending, 可提现
 * expert-available, 提现中 expert-withdrawing), newest first, one row per transfer. Read from the
 * ledger's statement lines (domain/ledger/statement.ts: the transfer's change to each of the three,
 * written with its entries), so a page is an index range, not every entry the expert ever had.
 *
 * A row's amount is what the movement did to 可提现 when it touched 可提现 (settlement +, a
 * withdrawal's hold −, its return +, a refund taken from settled income −), otherwise to the one
 * expert account it touched (income + and refunds − on 待结算; a paid withdrawal's net − and its tax −
 * on 提现中); accountLabel names that account. So the rows labelled 可提现 add up to the available
 * balance exactly, and each row's detail lists every entry on every expert account.
 */

/** Which ledger kinds each kind of 交易记录 shows. */
export const TRADE_LEDGER_KINDS: Record<TradeKind, readonly string[]> = {
  income: ['completion'],
  settlement: ['settlement'],
  refund: ['refund-hold'],
  withdrawal: ['withdraw-hold', 'withdraw-paid'],
  'withdrawal-return': ['withdraw-void'],
  tax: ['withdraw-tax'],
  reversal: ['reversal'],
}

const KIND_OF = new Map(
  Object.entries(TRADE_LEDGER_KINDS).flatMap(([trade, kinds]) =>
    kinds.map((kind) => [kind, trade as TradeKind] as const),
  ),
)

export const TRADE_NOT_FOUND = '交易记录不存在'

const ACCOUNT_LABELS = { pending: '待结算', available: '可提现', withdrawing: '提现中' } as const
type AccountName = keyof typeof ACCOUNT_LABELS

interface TradeRow {
  id: string
  kind: string
  consultation_id: string | null
  withdrawal_id: string | null
  created_at: string
  pending: number | string
  available: number | string
  withdrawing: number | string
}

/** The row's amount and account, by the rule above. */
function shownAmount(row: TradeRow): { amountFen: number; account: AccountName } {
  const touched = (['available', 'pending', 'withdrawing'] as const).find(
    (name) => Number(row[name]) !== 0,
  )
  const account = touched ?? 'available'
  return { amountFen: Number(row[account]), account }
}

/**
 * The expert's statement lines (ledger_statement_lines: one per transfer touching their accounts,
 * with its change to each, written by the ledger with the entries), as the rows above.
 */
function lineQuery(db: DB, expertId: string) {
  return db.selectFrom('ledger_statement_lines as l').where('l.owner_id', '=', expertId)
}

const LINE_COLUMNS = [
  'l.transfer_id as id',
  'l.kind',
  'l.consultation_id',
  'l.withdrawal_id',
  'l.created_at',
  'l.pending_change as pending',
  'l.available_change as available',
  'l.withdrawing_change as withdrawing',
] as const

interface Decorations {
  consultations: Map<
    string,
    {
      service: string
      state: string
      personMasked: string
      priceFen: number
      platformFen: number
      expertFen: number
    }
  >
  withdrawals: Map<string, { targetLabel: string; grossFen: number }>
}

async function decorate(
  db: DB,
  cipher: FieldCipher,
  rows: readonly Pick<TradeRow, 'consultation_id' | 'withdrawal_id'>[],
): Promise<Decorations> {
  const consultationIds = [...new Set(rows.flatMap((row) => row.consultation_id ?? []))]
  const withdrawalIds = [...new Set(rows.flatMap((row) => row.withdrawal_id ?? []))]
  const [consultations, withdrawals] = await Promise.all([
    consultationIds.length > 0
      ? db
          .selectFrom('consultations as c')
          .innerJoin('users as u', 'u.id', 'c.person_user_id')
          .leftJoin('id_cards as card', 'card.user_id', 'c.person_user_id')
          .select([
            'c.id',
            'c.service',
            'c.state',
            'c.price_fen',
            'c.platform_fen',
            'c.expert_fen',
            'u.nickname',
            'card.holder_encrypted',
          ])
          .where('c.id', 'in', consultationIds)
          .execute()
      : [],
    withdrawalIds.length > 0
      ? db
          .selectFrom('withdrawals')
          .select(['id', 'target_label', 'gross_fen'])
          .where('id', 'in', withdrawalIds)
          .execute()
      : [],
  ])
  const nameOf = (encrypted: string | null, nickname: string | null) => {
    try {
      if (encrypted) return cipher.decrypt(encrypted)
    } catch {
      // An unreadable name shows as the nickname.
    }
    return nickname || '就诊人'
  }
  return {
    consultations: new Map(
      consultations.map((row) => [
        row.id,
        {
          service: row.service,
          state: row.state,
          personMasked: maskName(nameOf(row.holder_encrypted, row.nickname)),
          priceFen: Number(row.price_fen),
          platformFen: Number(row.platform_fen),
          expertFen: Number(row.expert_fen),
        },
      ]),
    ),
    withdrawals: new Map(
      withdrawals.map((row) => [
        row.id,
        { targetLabel: row.target_label, grossFen: Number(row.gross_fen) },
      ]),
    ),
  }
}

const serviceLabel = (service: string) =>
  EXPERT_SERVICE_RULES[service as ConsultService]?.label ?? '咨询'

function toTrade(row: TradeRow, decorations: Decorations): WalletTrade {
  const kind = KIND_OF.get(row.kind) ?? 'reversal'
  const consultation = row.consultation_id
    ? decorations.consultations.get(row.consultation_id)
    : undefined
  const withdrawal = row.withdrawal_id ? decorations.withdrawals.get(row.withdrawal_id) : undefined
  const { amountFen, account } = shownAmount(row)
  let title: string = TRADE_KIND_LABELS[kind]
  if (consultation) title = `${serviceLabel(consultation.service)} · ${consultation.personMasked}`
  else if (withdrawal) {
    title =
      row.kind === 'withdraw-hold'
        ? `提现至${withdrawal.targetLabel}`
        : row.kind === 'withdraw-paid'
          ? `提现到账 · ${withdrawal.targetLabel}`
          : row.kind === 'withdraw-tax'
            ? `代扣个税 · 提现 ${yuan(withdrawal.grossFen)}`
            : `提现退回 · ${yuan(withdrawal.grossFen)}`
  }
  return {
    id: row.id,
    kind,
    kindLabel: TRADE_KIND_LABELS[kind],
    title,
    amountFen,
    accountLabel: ACCOUNT_LABELS[account],
    consultationId: row.consultation_id,
    withdrawalId: row.withdrawal_id,
    at: row.created_at,
  }
}

export async function listTrades(
  ctx: WalletContext,
  expertId: string,
  query: PageQuery & { kind?: TradeKind | undefined; month?: string | undefined },
) {
  // A range of the lines' (owner, time) index, or (owner, kind, time) by kind; a China month bounds
  // the time. The total is a count on the same index, in the same statement.
  let lines = lineQuery(ctx.db, expertId)
  if (query.kind) lines = lines.where('l.kind', 'in', [...TRADE_LEDGER_KINDS[query.kind]])
  if (query.month) {
    const range = chinaRange(query.month)
    lines = lines.where('l.created_at', '>=', range.from).where('l.created_at', '<', range.to)
  }
  const counted = lines.select(sql<number | string>`count(*)`.as('n'))
  const found = await page(
    query,
    lines
      .select([...LINE_COLUMNS, counted.as('total')])
      .orderBy('l.created_at', 'desc')
      .orderBy('l.transfer_id', 'desc'),
    lines,
    { totalOf: (row) => row.total ?? 0 },
  )
  const decorations = await decorate(ctx.db, ctx.cipher, found.items)
  return { ...found, items: found.items.map((row) => toTrade(row, decorations)) }
}

export async function getTrade(
  ctx: WalletContext,
  expertId: string,
  tradeId: string,
): Promise<WalletTradeDetail> {
  const row = await lineQuery(ctx.db, expertId)
    .select(LINE_COLUMNS)
    .where('l.transfer_id', '=', tradeId)
    .executeTakeFirst()
  if (!row) throw notFound(TRADE_NOT_FOUND)
  const decorations = await decorate(ctx.db, ctx.cipher, [row])
  const trade = toTrade(row, decorations)
  const consultation = row.consultation_id
    ? decorations.consultations.get(row.consultation_id)
    : undefined
  return {
    ...trade,
    consultation:
      consultation && row.consultation_id
        ? {
            id: row.consultation_id,
            serviceLabel: serviceLabel(consultation.service),
            personMasked: consultation.personMasked,
            priceFen: consultation.priceFen,
            platformFen: consultation.platformFen,
            expertFen: consultation.expertFen,
            stateLabel: CONSULT_STATE_LABELS[consultation.state as ConsultState] ?? '',
          }
        : null,
    entries: (['pending', 'available', 'withdrawing'] as const)
      .filter((name) => Number(row[name]) !== 0)
      .map((name) => ({ accountLabel: ACCOUNT_LABELS[name], amountFen: Number(row[name]) })),
  }
}
