import { sql } from 'kysely'
import { WALLET_MESSAGES, WITHDRAWAL_STATES, type WithdrawalState } from '@contract/main/wallet'
import { page, type PageQuery } from '../../db/paging'
import { badRequest, conflict, notFound } from '../../http/errors'
import { OPERATOR_PAGE_SIZE, recordOperatorAction } from '../operator'
import type { WalletContext } from './context'
import { lockWithdrawal, queueTransferJob, toWithdrawal, type WithdrawalRow } from './model'
import { voidHold } from './money'
import { sendWithdrawalNotices, tellWithdrawalEnded } from './notices'
import { sendToProvider } from './settle'
import { FIRST_CHECK_MS } from './withdrawals'

/*
 * 运营后台 → 提现: every withdrawal with its expert, 审核中 first to act on; 通过 sends it to the
 * provider (after the commit), 驳回 with a reason gives the money back at once. Each decision is
 * one transaction with its line in the operators' audit log.
 */

type Row = WithdrawalRow & {
  expert_name: string | null
  nickname: string | null
  hospital_name: string | null
}

function toOperatorWithdrawal(ctx: WalletContext, row: Row) {
  return {
    ...toWithdrawal(row, ctx.transfers.name),
    expert: {
      id: row.expert_user_id,
      name: row.expert_name ?? row.nickname ?? '已注销账号',
      hospitalName: row.hospital_name ?? '',
    },
    providerCode: row.provider_code,
  }
}

function withExpert(ctx: WalletContext) {
  return ctx.db
    .selectFrom('withdrawals as w')
    .leftJoin('users as u', 'u.id', 'w.expert_user_id')
    .leftJoin('experts as x', 'x.user_id', 'w.expert_user_id')
    .leftJoin('hospitals as h', 'h.id', 'x.hospital_id')
    .selectAll('w')
    .select(['x.name as expert_name', 'u.nickname', 'h.name as hospital_name'])
}

export async function operatorListWithdrawals(
  ctx: WalletContext,
  query: PageQuery & { state?: WithdrawalState | undefined },
) {
  let rows = withExpert(ctx)
  let counted = ctx.db.selectFrom('withdrawals as w')
  if (query.state) {
    rows = rows.where('w.state', '=', query.state)
    counted = counted.where('w.state', '=', query.state)
  }
  const [found, byState] = await Promise.all([
    page(
      query,
      rows
        // 审核中 first: what waits for an operator.
        .orderBy(sql`case when w.state = 'reviewing' then 0 else 1 end`)
        .orderBy('w.created_at', 'desc')
        .orderBy('w.id', 'desc'),
      counted,
      { size: OPERATOR_PAGE_SIZE },
    ),
    ctx.db
      .selectFrom('withdrawals')
      .select(['state', sql<number | string>`count(*)`.as('n')])
      .groupBy('state')
      .execute(),
  ])
  const counts = Object.fromEntries(WITHDRAWAL_STATES.map((state) => [state, 0])) as Record<
    WithdrawalState,
    number
  >
  for (const row of byState) counts[row.state as WithdrawalState] = Number(row.n)
  return {
    ...found,
    items: found.items.map((row) => toOperatorWithdrawal(ctx, row as Row)),
    counts,
  }
}

async function operatorRow(ctx: WalletContext, withdrawalId: string) {
  const row = await withExpert(ctx).where('w.id', '=', withdrawalId).executeTakeFirst()
  if (!row) throw notFound(WALLET_MESSAGES.notFound)
  return toOperatorWithdrawal(ctx, row as Row)
}

const ALREADY_DECIDED = '这笔提现已处理，无需审核'

export async function decideWithdrawal(
  ctx: WalletContext,
  operatorId: string,
  input: { withdrawalId: string; approve: boolean; reason?: string | undefined },
) {
  const reason = input.reason?.trim() ?? ''
  if (!input.approve && !reason) throw badRequest(WALLET_MESSAGES.rejectReasonRequired)
  const now = ctx.now()
  const at = now.toISOString()
  const notice = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockWithdrawal(trx, { id: input.withdrawalId })
    if (!row) throw notFound(WALLET_MESSAGES.notFound)
    if (row.state !== 'reviewing') throw conflict(ALREADY_DECIDED)
    if (input.approve) {
      await trx
        .updateTable('withdrawals')
        .set({ state: 'paying', reviewed_by: operatorId, reviewed_at: at, updated_at: at })
        .where('id', '=', row.id)
        .execute()
      await queueTransferJob(trx, row.id, new Date(now.getTime() + FIRST_CHECK_MS))
    } else {
      await voidHold(trx, row, now)
      await trx
        .updateTable('withdrawals')
        .set({
          state: 'failed',
          active_key: null,
          reason: `审核未通过：${reason}`.slice(0, 200),
          reviewed_by: operatorId,
          reviewed_at: at,
          updated_at: at,
          finished_at: at,
        })
        .where('id', '=', row.id)
        .execute()
    }
    const told = input.approve
      ? null
      : await tellWithdrawalEnded(trx, row, { kind: 'rejected', reason }, now)
    await recordOperatorAction(
      trx,
      {
        operatorId,
        action: input.approve ? 'withdrawal-approve' : 'withdrawal-reject',
        targetId: row.id,
        detail: `${(Number(row.gross_fen) / 100).toFixed(2)} 元${input.approve ? '' : `：${reason}`}`,
      },
      now,
    )
    return told
  })
  if (notice) await sendWithdrawalNotices(ctx, [notice])
  if (input.approve) await sendToProvider(ctx, input.withdrawalId)
  return operatorRow(ctx, input.withdrawalId)
}
