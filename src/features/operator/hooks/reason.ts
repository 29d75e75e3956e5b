import { z } from 'zod/mini'

/**
 * The contract's own rules for an operator's reason (驳回, 暂停, 不予添加: required, length, no
 * invisible characters), in its words, checked before the call and said beside the box.
 */
export function reasonProblem(schema: z.ZodMiniType, reason: string): string | null {
  const parsed = z.safeParse(schema, reason)
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? '请填写原因')
}
