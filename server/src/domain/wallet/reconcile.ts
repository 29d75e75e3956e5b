import { sql } from 'kysely'
import type { Reconciliation } from '@contract/main/wallet'
import type { DB } from '../../db'
import { page, type PageQuery } from '../../db/paging'
import { ApiError } from '../../http/errors'
import { FINAL_TRANSFER_STATES, type StatementLine } from '../../providers/transfers/types'
import { recordOperatorAction } from '../operator'
import type { WalletContext } from './context'
import { chinaRange } from './model'

/*
 * 对账: the transfer provider's statement of one China day against our withdrawals. A difference
 * is a bill on one side only, or in another state, or with another amount:
 *   missing-in-ledger    the provider has a bill we have no withdrawal for
 *   missing-at-provider  a withdrawal we count as paid that day is not in the statement
 *   state                the provider's final state is not ours (SUCCESS ↔ 已到账, FAIL ↔ 失败,
 *                        CANCELLED ↔ 已取消), or we have it final and the provider does not
 *   amount               the provider paid another amount than the withdrawal's net
 * The result of each day is kept (the latest run wins); operators see days with differences first,
 * and `npm run ledger:check` reports them.
 */

type Difference = Reconciliation['differences'][number]

const OURS_FOR: Record<string, string> = { SUCCESS: 'paid', FAIL: 'failed', CANCELLED: 'cancelled' }

export function compareStatement(
  lines: readonly StatementLine[],
  ours: readonly { out_bill_no: string; state: string; net_fen: number | string }[],
  paidThatDay: ReadonlySet<string>,
): Difference[] {
  const byBill = new Map(ours.map((row) => [row.out_bill_no, row]))
  const inStatement = new Set(lines.map((line) => line.outBillNo))
  const differences: Difference[] = []
  for (const line of lines) {
    const row = byBill.get(line.outBillNo)
    const base = {
      outBillNo: line.outBillNo,
      providerState: line.state,
      providerFen: line.amountFen,
      ledgerState: row?.state ?? null,
      ledgerFen: row ? Number(row.net_fen) : null,
    }
    if (!row) {
      differences.push({ ...base, problem: 'missing-in-ledger' })
      continue
    }
    const final = FINAL_TRANSFER_STATES.includes(line.state)
    const ourFinal = ['paid', 'failed', 'cancelled'].includes(row.state)
    if ((final && OURS_FOR[line.state] !== row.state) || (!final && ourFinal)) {
      differences.push({ ...base, problem: 'state' })
    } else if (line.state === 'SUCCESS' && line.amountFen !== Number(row.net_fen)) {
      differences.push({ ...base, problem: 'amount' })
    }
  }
  for (const bill of paidThatDay) {
    if (inStatement.has(bill)) continue
    const row = byBill.get(bill)!
    differences.push({
      outBillNo: bill,
      problem: 'missing-at-provider',
      providerState: null,
      ledgerState: row.state,
      providerFen: null,
      ledgerFen: Number(row.net_fen),
    })
  }
  return differences
}

export async function reconcileDay(
  ctx: WalletContext,
  date: string,
  operatorId: string | null,
): Promise<Reconciliation> {
  if (!ctx.transfers.configured) throw new ApiError(503, '提现未配置，无法对账')
  let lines: StatementLine[]
  try {
    lines = await ctx.transfers.dailyStatement(date)
  } catch (error) {
    ctx.log.warn({ err: error, date }, 'daily statement unavailable')
    throw new ApiError(503, '暂时无法获取支付机构的账单，请稍后再试')
  }
  const range = chinaRange(date)
  const bills = lines.map((line) => line.outBillNo)
  const [listed, paid] = await Promise.all([
    bills.length > 0
      ? ctx.db
          .selectFrom('withdrawals')
          .select(['out_bill_no', 'state', 'net_fen'])
          .where('out_bill_no', 'in', bills)
          .execute()
      : [],
    ctx.db
      .selectFrom('withdrawals')
      .select(['out_bill_no', 'state', 'net_fen'])
      .where('state', '=', 'paid')
      .where('provider', '=', ctx.transfers.name)
      .where('paid_at', '>=', range.from)
      .where('paid_at', '<', range.to)
      .execute(),
  ])
  const ours = [...listed, ...paid.filter((row) => !bills.includes(row.out_bill_no))]
  const differences = compareStatement(lines, ours, new Set(paid.map((row) => row.out_bill_no)))
  const now = ctx.now()
  const result: Reconciliation = {
    date,
    checkedAt: now.toISOString(),
    providerCount: lines.length,
    ledgerCount: ours.length,
    differences,
  }
  await ctx.db.transaction().execute(async (trx) => {
    const values = {
      provider: ctx.transfers.name,
      checked_at: result.checkedAt!,
      provider_count: result.providerCount,
      ledger_count: result.ledgerCount,
      difference_count: differences.length,
      differences_json: JSON.stringify(differences),
    }
    await trx
      .insertInto('wallet_reconciliations')
      .values({ date, ...values })
      .onConflict((oc) => oc.column('date').doUpdateSet(values))
      .execute()
    if (operatorId) {
      await recordOperatorAction(
        trx,
        {
          operatorId,
          action: 'wallet-reconcile',
          targetId: date,
          detail: `${lines.length} 笔账单，${differences.length} 处差异`,
        },
        now,
      )
    }
  })
  return result
}

export async function listReconciliations(db: DB, query: PageQuery) {
  const found = await page(
    query,
    db
      .selectFrom('wallet_reconciliations')
      .selectAll()
      .orderBy(sql`case when difference_count > 0 then 0 else 1 end`)
      .orderBy('date', 'desc'),
    db.selectFrom('wallet_reconciliations'),
  )
  return {
    ...found,
    items: found.items.map((row): Reconciliation => ({
      date: row.date,
      checkedAt: row.checked_at,
      providerCount: Number(row.provider_count),
      ledgerCount: Number(row.ledger_count),
      differences: JSON.parse(row.differences_json) as Reconciliation['differences'],
    })),
  }
}

export const DIFFERENCE_LABELS: Record<Difference['problem'], string> = {
  'missing-in-ledger': '本方无此提现',
  'missing-at-provider': '支付机构无此账单',
  state: '状态不一致',
  amount: '金额不一致',
}
