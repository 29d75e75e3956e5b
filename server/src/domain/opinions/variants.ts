import { randomUUID } from 'node:crypto'
import {
  OPINION_MESSAGES,
  type OpinionValues,
  type ReportTemplate,
  VARIANTS_MAX,
} from '@contract/main/opinions'
import type { DB } from '../../db'
import { badRequest, conflict, notFound } from '../../http/errors'
import { isUniqueViolation } from '../identity'
import { asVariant, BUILT_IN_TEMPLATES, checkValues, templateById } from './templates'

/** 选择模板: the built-in templates, then the expert's own variants (newest first). */
export async function listTemplates(db: DB, expertId: string): Promise<ReportTemplate[]> {
  const rows = await db
    .selectFrom('opinion_template_variants')
    .selectAll()
    .where('expert_user_id', '=', expertId)
    .orderBy('updated_at', 'desc')
    .execute()
  const own = rows.flatMap((row) => {
    const base = BUILT_IN_TEMPLATES.find((one) => one.id === row.template_id)
    return base
      ? [asVariant(base, { id: row.id, name: row.name, values: JSON.parse(row.values_json) })]
      : []
  })
  return [...BUILT_IN_TEMPLATES, ...own]
}

/**
 * 保存为我的模板: the values become the variant's default text. The same name replaces that
 * variant (its id stays); at most VARIANTS_MAX, counted in the insert's own transaction.
 */
export async function saveVariant(
  db: DB,
  expertId: string,
  input: { templateId: string; name: string; values: OpinionValues },
  now: Date,
): Promise<ReportTemplate> {
  const base = templateById(input.templateId)
  checkValues(base, input.values, 'draft')
  const name = input.name.trim()
  const at = now.toISOString()
  const id = await db.transaction().execute(async (trx) => {
    // The expert's row held (a no-op update): saves of one expert go one at a time, so the count
    // below cannot be read by two of them at once (VARIANTS_MAX holds under a burst).
    await trx
      .updateTable('users')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', expertId)
      .execute()
    const same = await trx
      .selectFrom('opinion_template_variants')
      .select('id')
      .where('expert_user_id', '=', expertId)
      .where('name', '=', name)
      .executeTakeFirst()
    if (same) {
      await trx
        .updateTable('opinion_template_variants')
        .set({ template_id: base.id, values_json: JSON.stringify(input.values), updated_at: at })
        .where('id', '=', same.id)
        .execute()
      return same.id
    }
    const { count } = await trx
      .selectFrom('opinion_template_variants')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('expert_user_id', '=', expertId)
      .executeTakeFirstOrThrow()
    if (Number(count) >= VARIANTS_MAX) throw badRequest(OPINION_MESSAGES.tooManyVariants)
    const fresh = randomUUID()
    try {
      await trx
        .insertInto('opinion_template_variants')
        .values({
          id: fresh,
          expert_user_id: expertId,
          template_id: base.id,
          name,
          values_json: JSON.stringify(input.values),
          created_at: at,
          updated_at: at,
        })
        .execute()
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(OPINION_MESSAGES.variantExists)
      throw error
    }
    return fresh
  })
  return asVariant(base, { id, name, values: input.values })
}

export async function deleteVariant(db: DB, expertId: string, variantId: string): Promise<void> {
  const gone = await db
    .deleteFrom('opinion_template_variants')
    .where('id', '=', variantId)
    .where('expert_user_id', '=', expertId)
    .executeTakeFirst()
  if (Number(gone.numDeletedRows) === 0) throw notFound(OPINION_MESSAGES.variantGone)
}
