import { randomUUID } from 'node:crypto'
import type { z } from 'zod/mini'
import {
  OPERATOR_ACTION_LABELS,
  type OperatorActionKindSchema,
  OperatorActionKindSchema as ActionSchema,
} from '@contract/main/operator'
import type { DB } from '../../db'
import { page, type PageQuery } from '../../db/paging'

type OperatorAction = z.infer<typeof OperatorActionKindSchema>

/** The operators' lists default to 20 a page (the size their pages ask for), not the spec's 10. */
export const OPERATOR_PAGE_SIZE = 20

export interface ActionInput {
  operatorId: string
  action: OperatorAction
  targetId: string
  /** Short and never a secret: a title, a state, a key's prefix. */
  detail?: string
}

/**
 * Writes one line of the operators' audit log. Call it with the transaction that made the change,
 * so a change is never without its line and a line never without its change.
 */
export async function recordOperatorAction(db: DB, input: ActionInput, now: Date): Promise<void> {
  await db
    .insertInto('operator_actions')
    .values({
      id: randomUUID(),
      operator_user_id: input.operatorId,
      action: ActionSchema.parse(input.action),
      target_id: input.targetId,
      detail: input.detail ? input.detail.slice(0, 200) : null,
      created_at: now.toISOString(),
    })
    .execute()
}

export async function listOperatorActions(db: DB, query: PageQuery) {
  const found = await page(
    query,
    db
      .selectFrom('operator_actions')
      .leftJoin('users', 'users.id', 'operator_actions.operator_user_id')
      .selectAll('operator_actions')
      .select('users.nickname')
      .orderBy('operator_actions.created_at', 'desc')
      .orderBy('operator_actions.id', 'desc'),
    db.selectFrom('operator_actions'),
    { size: OPERATOR_PAGE_SIZE },
  )
  return {
    ...found,
    items: found.items.map((row) => {
      const action = row.action as OperatorAction
      return {
        id: row.id,
        action,
        label: OPERATOR_ACTION_LABELS[action] ?? row.action,
        targetId: row.target_id,
        detail: row.detail,
        operator: row.nickname ?? '已注销账号',
        at: row.created_at,
      }
    }),
  }
}
