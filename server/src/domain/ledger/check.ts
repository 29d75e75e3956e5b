import { type RawBuilder, sql } from 'kysely'
import type { DB } from '../../db'
import { STATEMENT_ACCOUNT_KINDS, type StatementChange } from './statement'

/*
 * `npm run ledger:check` and the operators' 立即核对: the ledger's invariants, on any database.
 * - every transfer's entries sum to zero;
 * - every account's cached balance equals the sum of its entries;
 * - no account that must not go negative is below zero;
 * - an ended consultation's escrow is zero (paid to the expert or refunded);
 * - refunds of a consultation never exceed what it was paid;
 * - the wallet (issue 22): a paid withdrawal's tax + net = gross, and the ledger paid exactly its net
 *   out and its tax to the tax payable; any other withdrawal paid nothing out; a finished
 *   withdrawal's hold (expert-withdrawing) is zero and an unfinished one's is its gross;
 * - the statement lines (交易记录) are the entries: every expert's line of a transfer holds the sum
 *   of that transfer's entries on each of the expert's accounts and what the transfer is (kind, time,
 *   consultation, withdrawal); no entry on an expert account lacks its line, no line lacks entries;
 * - the last reconciliation of each day with the transfer provider found no difference.
 * Each problem is one line a person can read; none means the ledger holds.
 */

export interface LedgerCheck {
  ok: boolean
  at: string
  problems: string[]
  /** What was looked at, for the report. */
  counted: { transfers: number; accounts: number; entries: number }
}

const ENDED = ['completed', 'cancelled', 'declined', 'expired']

export async function checkLedger(db: DB, now: Date): Promise<LedgerCheck> {
  const problems: string[] = []
  const unbalanced = await db
    .selectFrom('ledger_entries')
    .select(['transfer_id', sql<number>`sum(amount)`.as('total')])
    .groupBy('transfer_id')
    .having(sql`sum(amount)`, '<>', 0)
    .limit(20)
    .execute()
  for (const row of unbalanced) {
    problems.push(`转账 ${row.transfer_id} 借贷不平：合计 ${row.total} 分`)
  }
  const drift = await db
    .selectFrom('ledger_accounts as a')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('ledger_entries')
          .select(['account_id', sql<number>`sum(amount)`.as('total')])
          .groupBy('account_id')
          .as('e'),
      (join) => join.onRef('e.account_id', '=', 'a.id'),
    )
    .select(['a.id', 'a.balance', 'a.allow_negative', 'e.total'])
    .execute()
  for (const row of drift) {
    const total = Number(row.total ?? 0)
    if (Number(row.balance) !== total) {
      problems.push(`账户 ${row.id} 余额 ${row.balance} 分与分录合计 ${total} 分不符`)
    }
    if (Number(row.allow_negative) !== 1 && total < 0) {
      problems.push(`账户 ${row.id} 不应为负，现为 ${total} 分`)
    }
  }
  const openEscrow = await db
    .selectFrom('consultations as c')
    .innerJoin('ledger_accounts as a', (join) =>
      join.on('a.id', '=', sql<string>`${'escrow:'} || c.id`),
    )
    .select(['c.id', 'c.state', 'a.balance'])
    .where('c.state', 'in', ENDED)
    .where('a.balance', '<>', 0)
    .limit(20)
    .execute()
  for (const row of openEscrow) {
    problems.push(`咨询 ${row.id}（${row.state}）已结束但托管余额为 ${row.balance} 分`)
  }
  const overRefunded = await db
    .selectFrom('consultation_refunds as r')
    .innerJoin('consultations as c', 'c.id', 'r.consultation_id')
    .select(['c.id', 'c.price_fen', sql<number>`sum(r.amount_fen)`.as('refunded')])
    .groupBy(['c.id', 'c.price_fen'])
    .having(sql`sum(r.amount_fen)`, '>', sql`c.price_fen`)
    .limit(20)
    .execute()
  for (const row of overRefunded) {
    problems.push(`咨询 ${row.id} 退款 ${row.refunded} 分超过实付 ${row.price_fen} 分`)
  }
  problems.push(
    ...(await statementProblems(db)),
    ...(await withdrawalProblems(db)),
    ...(await reconciliationProblems(db)),
  )
  const [transfers, entries] = await Promise.all([
    db
      .selectFrom('ledger_transfers')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirst(),
    db
      .selectFrom('ledger_entries')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirst(),
  ])
  return {
    ok: problems.length === 0,
    at: now.toISOString(),
    problems,
    counted: {
      transfers: Number(transfers?.n ?? 0),
      accounts: drift.length,
      entries: Number(entries?.n ?? 0),
    },
  }
}

const STATEMENT_LABELS: Record<StatementChange, string> = {
  pending_change: '待结算',
  available_change: '可提现',
  withdrawing_change: '提现中',
}
const STATEMENT_CHANGES = Object.keys(STATEMENT_LABELS) as StatementChange[]

/** The statement lines against the entries on expert accounts, per expert and transfer. */
async function statementProblems(db: DB): Promise<string[]> {
  const problems: string[] = []
  const change = (kind: string) =>
    sql<number | string>`sum(case when a.kind = ${kind} then e.amount else 0 end)`
  const fromEntries = db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
    .select(['a.owner_id', 'e.transfer_id'])
    .select(
      Object.entries(STATEMENT_ACCOUNT_KINDS).map(([kind, column]) => change(kind).as(column)),
    )
    .where('a.kind', 'in', Object.keys(STATEMENT_ACCOUNT_KINDS))
    .where('a.owner_id', 'is not', null)
    .groupBy(['a.owner_id', 'e.transfer_id'])
  const differ = (left: string, right: string) =>
    sql<boolean>`${sql.ref(left)} <> ${sql.ref(right)}`
  // Entries without their line, or a line whose changes are not its entries'.
  const wrong = await db
    .selectFrom(fromEntries.as('x'))
    .leftJoin('ledger_statement_lines as l', (join) =>
      join.onRef('l.owner_id', '=', 'x.owner_id').onRef('l.transfer_id', '=', 'x.transfer_id'),
    )
    .select([
      'x.owner_id',
      'x.transfer_id',
      'x.pending_change',
      'x.available_change',
      'x.withdrawing_change',
      'l.transfer_id as line',
      'l.pending_change as line_pending',
      'l.available_change as line_available',
      'l.withdrawing_change as line_withdrawing',
    ])
    .where((eb) =>
      eb.or([
        eb('l.transfer_id', 'is', null),
        differ('l.pending_change', 'x.pending_change'),
        differ('l.available_change', 'x.available_change'),
        differ('l.withdrawing_change', 'x.withdrawing_change'),
      ]),
    )
    .limit(20)
    .execute()
  const figures = (values: Record<StatementChange, number | string | null>) =>
    STATEMENT_CHANGES.map((name) => `${STATEMENT_LABELS[name]} ${Number(values[name])} 分`).join(
      '、',
    )
  for (const row of wrong) {
    if (row.line === null) {
      problems.push(`转账 ${row.transfer_id} 动了专家 ${row.owner_id} 的账户，但缺少其交易记录行`)
    } else {
      const line = {
        pending_change: row.line_pending,
        available_change: row.line_available,
        withdrawing_change: row.line_withdrawing,
      }
      problems.push(
        `专家 ${row.owner_id} 转账 ${row.transfer_id} 的交易记录行（${figures(line)}）与分录合计（${figures(row)}）不符`,
      )
    }
  }
  // Lines without entries, or unlike their transfer.
  const orphans = await db
    .selectFrom('ledger_statement_lines as l')
    .leftJoin(fromEntries.as('x'), (join) =>
      join.onRef('x.owner_id', '=', 'l.owner_id').onRef('x.transfer_id', '=', 'l.transfer_id'),
    )
    .leftJoin('ledger_transfers as t', 't.id', 'l.transfer_id')
    .select(['l.owner_id', 'l.transfer_id', 'x.transfer_id as entries', 't.id as transfer'])
    .where((eb) =>
      eb.or([
        eb('x.transfer_id', 'is', null),
        eb('t.id', 'is', null),
        differ('l.kind', 't.kind'),
        differ('l.created_at', 't.created_at'),
        sql<boolean>`coalesce(l.consultation_id, '') <> coalesce(t.consultation_id, '')`,
        sql<boolean>`coalesce(l.withdrawal_id, '') <> coalesce(t.withdrawal_id, '')`,
      ]),
    )
    .limit(20)
    .execute()
  for (const row of orphans) {
    problems.push(
      row.transfer === null
        ? `专家 ${row.owner_id} 的交易记录行指向不存在的转账 ${row.transfer_id}`
        : row.entries === null
          ? `专家 ${row.owner_id} 的交易记录行 ${row.transfer_id} 没有对应的分录`
          : `专家 ${row.owner_id} 的交易记录行 ${row.transfer_id} 的类型、时间、咨询或提现与转账不符`,
    )
  }
  return problems.slice(0, 20)
}

const WITHDRAWAL_FINAL = new Set(['paid', 'failed', 'cancelled'])

async function withdrawalProblems(db: DB): Promise<string[]> {
  const problems: string[] = []
  const amount = (condition: RawBuilder<unknown>) =>
    sql<number | string>`coalesce(sum(case when ${condition} then e.amount else 0 end), 0)`
  const rows = await db
    .selectFrom('withdrawals as w')
    .leftJoin('ledger_transfers as t', 't.withdrawal_id', 'w.id')
    .leftJoin('ledger_entries as e', 'e.transfer_id', 't.id')
    .select([
      'w.id',
      'w.state',
      'w.gross_fen',
      'w.tax_fen',
      'w.net_fen',
      amount(sql`e.account_id = ${'expert-withdrawing:'} || w.expert_user_id`).as('held'),
      amount(sql`e.account_id = ${'payout:'} || w.provider`).as('paid_out'),
      amount(sql`e.account_id = ${'tax-payable'}`).as('taxed'),
    ])
    .groupBy(['w.id', 'w.state', 'w.gross_fen', 'w.tax_fen', 'w.net_fen'])
    .execute()
  for (const row of rows) {
    const [gross, tax, net] = [Number(row.gross_fen), Number(row.tax_fen), Number(row.net_fen)]
    const [held, paidOut, taxed] = [Number(row.held), Number(row.paid_out), Number(row.taxed)]
    const paid = row.state === 'paid'
    if (tax + net !== gross) {
      problems.push(`提现 ${row.id} 个税 ${tax} 分 + 实到 ${net} 分 ≠ 提现金额 ${gross} 分`)
    }
    if (paidOut !== (paid ? net : 0) || taxed !== (paid ? tax : 0)) {
      problems.push(
        `提现 ${row.id}（${row.state}）账本付出 ${paidOut} 分、代扣 ${taxed} 分，应为 ${paid ? net : 0} 分、${paid ? tax : 0} 分`,
      )
    }
    const shouldHold = WITHDRAWAL_FINAL.has(row.state) ? 0 : gross
    if (held !== shouldHold) {
      problems.push(`提现 ${row.id}（${row.state}）冻结 ${held} 分，应为 ${shouldHold} 分`)
    }
    if (problems.length >= 20) break
  }
  return problems
}

const DIFFERENCE_LABELS: Record<string, string> = {
  'missing-in-ledger': '本方无此提现',
  'missing-at-provider': '支付机构无此账单',
  state: '状态不一致',
  amount: '金额不一致',
}

/** Days whose last reconciliation with the transfer provider found differences. */
async function reconciliationProblems(db: DB): Promise<string[]> {
  const rows = await db
    .selectFrom('wallet_reconciliations')
    .select(['date', 'differences_json'])
    .where('difference_count', '>', 0)
    .orderBy('date', 'desc')
    .limit(20)
    .execute()
  return rows.flatMap((row) =>
    (
      JSON.parse(row.differences_json) as {
        outBillNo: string
        problem: string
        providerState: string | null
        ledgerState: string | null
        providerFen: number | null
        ledgerFen: number | null
      }[]
    ).map(
      (d) =>
        `对账 ${row.date}：账单 ${d.outBillNo} ${DIFFERENCE_LABELS[d.problem] ?? d.problem}（支付机构 ${d.providerState ?? '无'} ${d.providerFen ?? '—'} 分，本方 ${d.ledgerState ?? '无'} ${d.ledgerFen ?? '—'} 分）`,
    ),
  )
}

const LAST_CHECK_KEY = 'ledger-check'

/** Runs the check and keeps its result for the operators' page. */
export async function runAndRecordLedgerCheck(db: DB, now: Date): Promise<LedgerCheck> {
  const result = await checkLedger(db, now)
  const value = JSON.stringify({ ok: result.ok, at: result.at, problems: result.problems })
  await db
    .insertInto('app_settings')
    .values({ key: LAST_CHECK_KEY, value, updated_by: null, updated_at: result.at })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: result.at }))
    .execute()
  return result
}

export async function lastLedgerCheck(
  db: DB,
): Promise<{ ok: boolean; at: string; problems: string[] } | null> {
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', LAST_CHECK_KEY)
    .executeTakeFirst()
  return row ? (JSON.parse(row.value) as { ok: boolean; at: string; problems: string[] }) : null
}
