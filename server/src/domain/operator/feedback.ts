import { FEEDBACK_STATUS_LABELS } from '@contract/main/feedback'
import type { DB } from '../../db'
import { notFound } from '../../http/errors'
import { FEEDBACK_NOT_FOUND, getFeedback } from '../feedback'
import { createMessage } from '../messages'
import { award, POINT_AWARDS } from '../points'
import { recordOperatorAction } from './audit'

/**
 * An operator's reply: the feedback is 已回复, the sender gets a message, and when adopted (采纳)
 * the sender earns points once: a second reply, or two operators racing, never pays twice (the
 * ledger's (user, reason, ref) key). A later reply replaces the text; adoption is never taken back.
 */
export async function replyFeedback(
  db: DB,
  operatorId: string,
  input: { feedbackId: string; text: string; adopted: boolean },
  now: Date,
) {
  const at = now.toISOString()
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('feedback')
      .select(['id', 'user_id', 'adopted'])
      .where('id', '=', input.feedbackId)
      .executeTakeFirst()
    if (!row) throw notFound(FEEDBACK_NOT_FOUND)
    await trx
      .updateTable('feedback')
      .set({
        status: 'replied',
        reply_text: input.text,
        replied_at: at,
        replied_by_user_id: operatorId,
        adopted: input.adopted || Number(row.adopted) === 1 ? 1 : 0,
      })
      .where('id', '=', row.id)
      .execute()
    const points = input.adopted
      ? await award(
          trx,
          {
            userId: row.user_id,
            reason: 'feedbackAdopted',
            ref: row.id,
            delta: POINT_AWARDS.feedbackAdopted,
          },
          now,
        )
      : null
    await createMessage(
      trx,
      {
        userId: row.user_id,
        kind: 'system',
        title: points !== null ? '您的反馈已被采纳' : '您的反馈有了回复',
        body:
          points !== null
            ? `${input.text}\n\n感谢您的建议，已奖励 ${POINT_AWARDS.feedbackAdopted} 积分。`
            : input.text,
        link: { route: 'feedback', params: { tab: 'mine' } },
      },
      now,
    )
    await recordOperatorAction(
      trx,
      {
        operatorId,
        action: 'feedback-reply',
        targetId: row.id,
        detail: input.adopted ? '采纳' : FEEDBACK_STATUS_LABELS.replied,
      },
      now,
    )
  })
  return getFeedback(db, input.feedbackId)
}
