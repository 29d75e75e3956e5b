import { randomUUID } from 'node:crypto'
import {
  APPEAL_STATUS_LABELS,
  type AppealStatus,
  type BoundCard,
  type IdCardAppeal,
} from '@contract/main/account'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { IdCardAppealsTable } from '../../db/schema'
import { badRequest, notFound, tooManyRequests } from '../../http/errors'
import type { RealNameProvider } from '../../providers/real-name'
import { DAY, describeWait, idCardNumberProblem, maskIdNumber } from '../identity'
import { type LimitRule, reserve } from '../limits'
import { toBoundCard } from './id-cards'

export const NO_CARD_TO_VERIFY = '请先绑定身份证'
export const REAL_NAME_MISMATCH = '姓名与身份证号不一致，实名核验未通过，请核对后重新绑定'
export const APPEAL_NOT_TAKEN = '该身份证未被其他账号绑定，请直接绑定'
export const APPEAL_OWN_CARD = '该身份证已绑定在当前账号，无需申诉'

/** Provider checks per account per day: each costs money, and a mismatch is worth a second look. */
export const VERIFY_PER_DAY = 5
/** Appeals per account per day: each is read by a person. */
export const APPEALS_PER_DAY = 3

/** Reserve first (domain/limits.ts), so concurrent requests cannot overrun the count. */
async function limited(db: DB, rule: LimitRule, now: Date): Promise<void> {
  const slot = await reserve(db, { ...rule, now })
  if (!slot.ok) {
    throw tooManyRequests(`尝试次数过多，请 ${describeWait(slot.retryAfterMs)}后再试`)
  }
}

/**
 * Asks the real-name provider whether the bound card's name and number belong together. Only its
 * "yes" makes the card 'verified' (已实名); without a provider the answer is 400 未配置实名核验 and the
 * card stays 'bound' (已绑定). Verifying a verified card answers it without asking again.
 */
export async function verifyIdCard(
  db: DB,
  cipher: FieldCipher,
  provider: RealNameProvider,
  userId: string,
  now: Date,
): Promise<BoundCard> {
  const row = await db
    .selectFrom('id_cards')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!row) throw badRequest(NO_CARD_TO_VERIFY)
  if (row.verified_at) return toBoundCard(cipher, row)
  await limited(db, { key: `realname-user:${userId}`, limit: VERIFY_PER_DAY, windowMs: DAY }, now)
  const result = await provider.verify({
    realName: cipher.decrypt(row.holder_encrypted),
    idNumber: cipher.decrypt(row.number_encrypted),
  })
  if (!result.matched) throw badRequest(REAL_NAME_MISMATCH)
  const at = now.toISOString()
  await db
    .updateTable('id_cards')
    .set({ verified_at: at, verified_by: provider.name })
    .where('id', '=', row.id)
    .execute()
  return toBoundCard(cipher, { ...row, verified_at: at, verified_by: provider.name })
}

function toAppeal(cipher: FieldCipher, row: IdCardAppealsTable): IdCardAppeal {
  const status = row.status as AppealStatus
  return {
    id: row.id,
    status,
    statusLabel: APPEAL_STATUS_LABELS[status] ?? row.status,
    numberMasked: maskIdNumber(cipher.decrypt(row.number_encrypted)),
    reason: row.reason,
    contact: row.contact,
    operatorNote: row.operator_note,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/**
 * An appeal against an ID number bound to another account (someone typed the person's number, or an
 * old account they lost): recorded for an operator, who checks documents through the contact given
 * and decides (decideAppeal). The number must really be bound elsewhere, so an appeal is not a way
 * around the binding rules; a pending appeal for the same number is answered again, not duplicated.
 */
export async function appealIdCard(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  input: { realName: string; idCard: string; reason: string; contact: string },
  now: Date,
): Promise<{ appeal: IdCardAppeal; created: boolean }> {
  const problem = idCardNumberProblem(input.idCard, now)
  if (problem) throw badRequest(problem)
  const numberHash = cipher.digest(input.idCard)
  const pending = await db
    .selectFrom('id_card_appeals')
    .selectAll()
    .where('user_id', '=', userId)
    .where('number_hash', '=', numberHash)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  if (pending) return { appeal: toAppeal(cipher, pending), created: false }
  await limited(db, { key: `appeal-user:${userId}`, limit: APPEALS_PER_DAY, windowMs: DAY }, now)
  const holder = await db
    .selectFrom('id_cards')
    .select('user_id')
    .where('number_hash', '=', numberHash)
    .executeTakeFirst()
  if (!holder) throw badRequest(APPEAL_NOT_TAKEN)
  if (holder.user_id === userId) throw badRequest(APPEAL_OWN_CARD)
  const at = now.toISOString()
  const row: IdCardAppealsTable = {
    id: randomUUID(),
    user_id: userId,
    number_hash: numberHash,
    number_encrypted: cipher.encrypt(input.idCard),
    holder_encrypted: cipher.encrypt(input.realName),
    reason: input.reason,
    contact: input.contact,
    status: 'pending',
    operator_note: null,
    created_at: at,
    updated_at: at,
  }
  await db.insertInto('id_card_appeals').values(row).execute()
  return { appeal: toAppeal(cipher, row), created: true }
}

export async function listAppeals(
  db: DB,
  cipher: FieldCipher,
  userId: string,
): Promise<IdCardAppeal[]> {
  const rows = await db
    .selectFrom('id_card_appeals')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  return rows.map((row) => toAppeal(cipher, row))
}

/**
 * The operator's decision (there is no operator console yet: call this from a script, or update
 * the row by hand with the same fields). The person sees the status and the note in the app.
 */
export async function decideAppeal(
  db: DB,
  appealId: string,
  decision: { status: 'resolved' | 'rejected'; note: string },
  now: Date,
): Promise<void> {
  const result = await db
    .updateTable('id_card_appeals')
    .set({ status: decision.status, operator_note: decision.note, updated_at: now.toISOString() })
    .where('id', '=', appealId)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) === 0) throw notFound('没有待处理的该申诉')
}
