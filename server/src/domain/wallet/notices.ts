import type { DB } from '../../db'
import type { SubscribeNotice } from '../../providers/subscribe-message'
import { createMessage, sendSubscribeNotices } from '../messages'
import type { WalletContext } from './context'
import { type WithdrawalRow, yuan } from './model'

/*
 * 我的消息 when a withdrawal ends: 已到账, 失败 — 已退回余额 (with the reason), 审核未通过, 已取消. Written
 * in the transaction that moves the withdrawal to its final state, under its row lock, so a
 * notification, 刷新 and the job racing to apply the same answer tell the expert once: only the one
 * that changed the state writes. The WeChat subscribe message of the same notice goes after the
 * commit (未配置 until an adapter is configured).
 */

export type WithdrawalEnding =
  | { kind: 'paid' }
  | { kind: 'failed'; reason: string }
  | { kind: 'rejected'; reason: string }
  | { kind: 'cancelled' }

export const WITHDRAWAL_NOTICE_TITLES = {
  paid: '提现已到账',
  failed: '提现失败，已退回余额',
  rejected: '提现审核未通过，已退回余额',
  cancelled: '提现已取消，已退回余额',
} as const satisfies Record<WithdrawalEnding['kind'], string>

function bodyOf(row: WithdrawalRow, ending: WithdrawalEnding): string {
  const gross = Number(row.gross_fen)
  const tax = Number(row.tax_fen)
  switch (ending.kind) {
    case 'paid':
      return tax > 0
        ? `${yuan(gross - tax)} 已转入${row.target_label}（提现 ${yuan(gross)}，代扣个税 ${yuan(tax)}）。`
        : `${yuan(gross)} 已转入${row.target_label}。`
    case 'failed':
      return `提现 ${yuan(gross)} 未能到账，金额已退回可提现余额。原因：${ending.reason}`
    case 'rejected':
      return `提现 ${yuan(gross)} 未通过审核，金额已退回可提现余额。原因：${ending.reason}`
    case 'cancelled':
      return `提现 ${yuan(gross)} 已取消，金额已退回可提现余额。`
  }
}

/**
 * The notice of a withdrawal's end, in the caller's transaction (the one that made it final);
 * answers the subscribe message to send after the commit.
 */
export async function tellWithdrawalEnded(
  trx: DB,
  row: WithdrawalRow,
  ending: WithdrawalEnding,
  now: Date,
): Promise<SubscribeNotice> {
  const title = WITHDRAWAL_NOTICE_TITLES[ending.kind]
  const body = bodyOf(row, ending)
  await createMessage(
    trx,
    {
      userId: row.expert_user_id,
      kind: 'system',
      title,
      body,
      link: { route: 'withdrawal', params: { id: row.id } },
    },
    now,
  )
  return {
    userId: row.expert_user_id,
    template: 'wallet-update',
    data: { title, amount: yuan(Number(row.gross_fen)), detail: body.slice(0, 20) },
  }
}

/** Sends the subscribe messages of committed notices; never fails the caller. */
export async function sendWithdrawalNotices(
  ctx: Pick<WalletContext, 'subscribe' | 'log'>,
  notices: readonly SubscribeNotice[],
): Promise<void> {
  if (notices.length > 0) await sendSubscribeNotices(ctx.subscribe, ctx.log, notices)
}
