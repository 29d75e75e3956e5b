import { randomUUID } from 'node:crypto'
import type { BoundCard } from '@contract/main/account'
import { REASONS } from '@contract/reasons'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { IdCardsTable } from '../../db/schema'
import { badRequest, forbidden, tooManyRequests } from '../../http/errors'
import {
  DAY,
  describeWait,
  isUniqueViolation,
  idCardNumberProblem,
  maskName,
  maskIdNumber,
} from '../identity'
import { reserve } from '../limits'
import { nameDigest } from '../records'
import { announceFoundReports } from '../reports'

export const ID_CARD_TAKEN = '该身份证已被其他账号绑定'
export const ID_CARD_ALREADY_BOUND = '您已绑定身份证，每个账号只能绑定一张'
export const ONLY_OWN_PHONE = '只能查询本人手机号绑定的证件'
/**
 * Attempts per account per day. 该身份证已被其他账号绑定 tells whether a number is in use, so an
 * account must not be able to try numbers in bulk; a person fixing typos needs a handful.
 */
export const ID_CARD_BINDS_PER_DAY = 10

/** The masked view of a stored card: the only shape in which a card ever leaves the server. */
export function toBoundCard(cipher: FieldCipher, row: IdCardsTable): BoundCard {
  return {
    id: row.id,
    kind: 'idcard',
    holderMasked: maskName(cipher.decrypt(row.holder_encrypted)),
    numberMasked: maskIdNumber(cipher.decrypt(row.number_encrypted)),
    createdAt: row.created_at,
    status: row.verified_at ? 'verified' : 'bound',
  }
}

/**
 * Binds an ID card to the account (real-name verification). The number must pass GB 11643's checks
 * (a typo must not be stored as someone's identity); it is stored encrypted, with a keyed digest so
 * a number can be bound to one account only. Binding the same number again is answered with the
 * card, so a retried request does not fail.
 */
export async function bindIdCard(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  input: { realName: string; idCard: string },
  now: Date,
): Promise<BoundCard> {
  const problem = idCardNumberProblem(input.idCard, now)
  if (problem) throw badRequest(problem)
  // Reserved first, and every attempt keeps its slot (a duplicate answer is what is being limited).
  const rule = { key: `idcard-user:${userId}`, limit: ID_CARD_BINDS_PER_DAY, windowMs: DAY }
  const slot = await reserve(db, { ...rule, now })
  if (!slot.ok) throw tooManyRequests(`尝试次数过多，请 ${describeWait(slot.retryAfterMs)}后再试`)
  const numberHash = cipher.digest(input.idCard)

  const own = await db
    .selectFrom('id_cards')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (own) {
    if (own.number_hash === numberHash) return toBoundCard(cipher, own)
    throw badRequest(ID_CARD_ALREADY_BOUND)
  }
  const taken = await db
    .selectFrom('id_cards')
    .select('id')
    .where('number_hash', '=', numberHash)
    .executeTakeFirst()
  if (taken) throw badRequest(ID_CARD_TAKEN, REASONS.idCardTaken)

  const row: IdCardsTable = {
    id: randomUUID(),
    user_id: userId,
    holder_encrypted: cipher.encrypt(input.realName),
    number_encrypted: cipher.encrypt(input.idCard),
    number_hash: numberHash,
    created_at: now.toISOString(),
    verified_at: null,
    verified_by: null,
  }
  try {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('id_cards').values(row).execute()
      // The hospital reports pushed before the card was bound join 我的报告 now: one 报告通知.
      await announceFoundReports(
        trx,
        userId,
        { patientKey: numberHash, nameHash: nameDigest(cipher, input.realName) },
        now,
      )
    })
  } catch (error) {
    // A concurrent bind won the race: the unique keys decide, the loser gets the same answers.
    if (!isUniqueViolation(error)) throw error
    const winner = await db
      .selectFrom('id_cards')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst()
    if (winner?.number_hash === numberHash) return toBoundCard(cipher, winner)
    throw winner
      ? badRequest(ID_CARD_ALREADY_BOUND)
      : badRequest(ID_CARD_TAKEN, REASONS.idCardTaken)
  }
  return toBoundCard(cipher, row)
}

export async function findBoundCard(
  db: DB,
  cipher: FieldCipher,
  userId: string,
): Promise<BoundCard | null> {
  const row = await db
    .selectFrom('id_cards')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row ? toBoundCard(cipher, row) : null
}

/** Every bound card (one ID card today; other kinds may follow), masked. */
export async function listBoundCards(
  db: DB,
  cipher: FieldCipher,
  userId: string,
): Promise<BoundCard[]> {
  const card = await findBoundCard(db, cipher, userId)
  return card ? [card] : []
}

/**
 * The card bound to a phone number, for the caller's own number only: looking up strangers by
 * phone would turn this into an identity oracle.
 */
export async function findBoundCardByPhone(
  db: DB,
  cipher: FieldCipher,
  caller: { id: string; mobile: string | null },
  mobile: string,
): Promise<BoundCard | null> {
  if (caller.mobile !== mobile) throw forbidden(ONLY_OWN_PHONE)
  return findBoundCard(db, cipher, caller.id)
}
