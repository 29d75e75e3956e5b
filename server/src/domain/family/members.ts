import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import {
  CHILD_AGE_LIMIT,
  FAMILY_MEMBERS_MAX,
  FAMILY_MESSAGES,
  FAMILY_RELATION_LABELS,
  type FamilyManager,
  type FamilyMember,
  type FamilyRelation,
} from '@contract/main/family'
import { CONSENT_TEXT_VERSIONS } from '@contract/main/consents'
import { REASONS } from '@contract/reasons'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { FamilyLinksTable } from '../../db/schema'
import { badRequest, notFound, tooManyRequests } from '../../http/errors'
import {
  consumeSmsCode,
  createUser,
  DAY,
  describeWait,
  findUserByMobile,
  isUniqueViolation,
  issueSmsCode,
  maskMobile,
  type SmsProvider,
} from '../identity'
import { CONSENT_CHANNELS, noteWithdrawn, writeConsent } from '../consents'
import { reserve } from '../limits'
import { idCardNumberProblem, maskName } from '../identity'
import { ID_CARD_BINDS_PER_DAY, ID_CARD_TAKEN } from '../profile'
import { normaliseIdNumber, normalisePatientName } from '../records'

/*
 * 亲情卡 (contract/main/family.ts). A manager sees an active member's records (access.ts
 * familyReach); this file makes and ends the links.
 *
 * - A child under 14 is a person without a login: a `users` row with no mobile, password or WeChat,
 *   and an id_cards row with the child's name and number, so hospital exams pushed for the child
 *   match exactly as they match an adult's bound card. Two guardians adding the same child (same
 *   number AND name) share that one person; a number bound to a real account is refused.
 * - An adult agrees with a 'family' SMS code sent to their own phone; the member is the account of
 *   that phone, made for it if none (they then sign in with an SMS code and can end the link).
 * - FAMILY_MEMBERS_MAX is held under a burst: each add locks the manager's users row (PostgreSQL)
 *   or runs alone (SQLite's one connection) before counting and inserting.
 * - Ending keeps the row with ended_at (who could see what until when); access ends at once.
 */

/** Shown as the child person's nickname (never displayed as a name; the card's masked name is). */
const CHILD_NICKNAME = '儿童就诊人'

/** Age in whole years on `today`'s date in China (UTC+8), from an ID number's birth date. */
export function ageOn(idNumber: string, today: Date): number {
  const china = new Date(today.getTime() + 8 * 3600 * 1000)
  const year = Number(idNumber.slice(6, 10))
  const month = Number(idNumber.slice(10, 12))
  const day = Number(idNumber.slice(12, 14))
  let age = china.getUTCFullYear() - year
  const beforeBirthday =
    china.getUTCMonth() + 1 < month ||
    (china.getUTCMonth() + 1 === month && china.getUTCDate() < day)
  if (beforeBirthday) age -= 1
  return age
}

function relationLabel(relation: string): string {
  return FAMILY_RELATION_LABELS[relation as FamilyRelation] ?? relation
}

interface PersonFacts {
  nameMasked: string | null
  mobileMasked: string | null
}

/** Masked name (from the bound card) and phone of some people, by user id. */
export async function personFacts(
  db: DB,
  cipher: FieldCipher,
  userIds: readonly string[],
): Promise<Map<string, PersonFacts>> {
  const facts = new Map<string, PersonFacts>()
  if (userIds.length === 0) return facts
  const rows = await db
    .selectFrom('users')
    .leftJoin('id_cards', 'id_cards.user_id', 'users.id')
    .select(['users.id', 'users.mobile', 'id_cards.holder_encrypted'])
    .where('users.id', 'in', [...new Set(userIds)])
    .execute()
  for (const row of rows) {
    let nameMasked: string | null = null
    if (row.holder_encrypted) {
      try {
        nameMasked = maskName(cipher.decrypt(row.holder_encrypted))
      } catch {
        // A card written under another key: no name rather than a failed page.
      }
    }
    facts.set(row.id, { nameMasked, mobileMasked: row.mobile ? maskMobile(row.mobile) : null })
  }
  return facts
}

export function toMember(link: FamilyLinksTable, facts: PersonFacts | undefined): FamilyMember {
  return {
    id: link.id,
    personId: link.member_user_id,
    kind: link.kind,
    relation: link.relation as FamilyRelation,
    relationLabel: relationLabel(link.relation),
    nameMasked: facts?.nameMasked ?? null,
    mobileMasked: facts?.mobileMasked ?? null,
    createdAt: link.created_at,
  }
}

function toManager(link: FamilyLinksTable, facts: PersonFacts | undefined): FamilyManager {
  return {
    id: link.id,
    nameMasked: facts?.nameMasked ?? null,
    mobileMasked: facts?.mobileMasked ?? null,
    relation: link.relation as FamilyRelation,
    relationLabel: relationLabel(link.relation),
    createdAt: link.created_at,
  }
}

export async function listFamily(db: DB, cipher: FieldCipher, userId: string) {
  const [members, managers] = await Promise.all([
    db
      .selectFrom('family_links')
      .selectAll()
      .where('manager_user_id', '=', userId)
      .where('ended_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('family_links')
      .selectAll()
      .where('member_user_id', '=', userId)
      .where('ended_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ])
  const facts = await personFacts(db, cipher, [
    userId,
    ...members.map((link) => link.member_user_id),
    ...managers.map((link) => link.manager_user_id),
  ])
  return {
    self: { personId: userId, nameMasked: facts.get(userId)?.nameMasked ?? null },
    members: members.map((link) => toMember(link, facts.get(link.member_user_id))),
    managers: managers.map((link) => toManager(link, facts.get(link.manager_user_id))),
  }
}

/**
 * Inside the transaction: waits for the manager's other adds (a row lock on PostgreSQL; SQLite
 * runs one transaction at a time), then refuses a duplicate or a full card and inserts the link.
 */
/**
 * Holds a user's row until the transaction ends (PostgreSQL; SQLite writes one at a time), so
 * checks of that person's links and the insert that follows them cannot interleave.
 */
async function lockUser(trx: DB, userId: string): Promise<void> {
  await trx
    .updateTable('users')
    .set({ updated_at: sql`updated_at` })
    .where('id', '=', userId)
    .execute()
}

export async function insertLink(
  trx: DB,
  input: { managerId: string; memberId: string; kind: 'child' | 'adult'; relation: string },
  now: Date,
): Promise<FamilyLinksTable> {
  if (input.managerId === input.memberId) throw badRequest(FAMILY_MESSAGES.self)
  await lockUser(trx, input.managerId)
  const active = await trx
    .selectFrom('family_links')
    .select(['member_user_id'])
    .where('manager_user_id', '=', input.managerId)
    .where('ended_at', 'is', null)
    .execute()
  if (active.some((row) => row.member_user_id === input.memberId)) {
    throw badRequest(FAMILY_MESSAGES.already)
  }
  if (active.length >= FAMILY_MEMBERS_MAX) throw badRequest(FAMILY_MESSAGES.tooMany)
  const link: FamilyLinksTable = {
    id: randomUUID(),
    manager_user_id: input.managerId,
    member_user_id: input.memberId,
    kind: input.kind,
    relation: input.relation,
    created_at: now.toISOString(),
    ended_at: null,
  }
  await trx.insertInto('family_links').values(link).execute()
  // The consent ledger: a guardian's consent for a child (PIPL art. 31), or an adult member's
  // agreement by the code sent to their phone; both the manager and the member see it.
  await writeConsent(
    trx,
    {
      userId: input.managerId,
      subjectId: input.memberId,
      purpose: 'family',
      version: CONSENT_TEXT_VERSIONS.family,
      targetId: link.id,
      channel: input.kind === 'child' ? CONSENT_CHANNELS.familyChild : CONSENT_CHANNELS.familyAdult,
      detail:
        input.kind === 'child'
          ? '监护人同意代管儿童的健康记录'
          : `家人（${FAMILY_RELATION_LABELS[input.relation as FamilyRelation] ?? input.relation}）同意由对方代为查看和管理`,
    },
    now,
  )
  return link
}

/** Runs an add; a unique-index loss (a concurrent add of the same member) answers as a duplicate. */
export async function addLink<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(work)
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(FAMILY_MESSAGES.already)
    throw error
  }
}

/** A person who cannot sign in (a child added by a guardian): no phone, password or WeChat. */
async function isLoginlessPerson(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select(['mobile', 'password_hash', 'wechat_openid', 'deleted_at'])
    .where('id', '=', userId)
    .executeTakeFirst()
  return (
    !!row &&
    row.deleted_at === null &&
    row.mobile === null &&
    row.password_hash === null &&
    row.wechat_openid === null
  )
}

export async function addChild(
  db: DB,
  cipher: FieldCipher,
  managerId: string,
  input: { name: string; idNumber: string },
  now: Date,
): Promise<FamilyMember> {
  const idNumber = normaliseIdNumber(input.idNumber)
  const problem = idCardNumberProblem(idNumber, now)
  if (problem) throw badRequest(problem)
  if (ageOn(idNumber, now) >= CHILD_AGE_LIMIT) throw badRequest(FAMILY_MESSAGES.notChild)
  // 该身份证已被其他账号绑定 tells whether a number is in use: the same daily budget as binding a
  // card (profile/id-cards.ts), reserved first, so numbers cannot be tried in bulk here instead.
  const slot = await reserve(db, {
    key: `idcard-user:${managerId}`,
    limit: ID_CARD_BINDS_PER_DAY,
    windowMs: DAY,
    now,
  })
  if (!slot.ok) throw tooManyRequests(`尝试次数过多，请 ${describeWait(slot.retryAfterMs)}后再试`)
  const numberHash = cipher.digest(idNumber)

  const link = await addLink(db, async (trx) => {
    const card = await trx
      .selectFrom('id_cards')
      .select(['user_id', 'holder_encrypted'])
      .where('number_hash', '=', numberHash)
      .executeTakeFirst()
    let childId: string
    if (card) {
      if (card.user_id === managerId) throw badRequest(FAMILY_MESSAGES.self)
      // Only a child person already added by another guardian is shared, and only with the same
      // name: a number bound to someone's own account stays theirs.
      const sameName =
        normalisePatientName(cipher.decrypt(card.holder_encrypted)) ===
        normalisePatientName(input.name)
      if (!sameName || !(await isLoginlessPerson(trx, card.user_id))) {
        throw badRequest(ID_CARD_TAKEN, REASONS.idCardTaken)
      }
      // A child someone already guards is not joined by knowing the name and ID number (both are
      // printed on every report and were once readable through a share): the guardian shares the
      // child's records through 授权 instead. A child nobody guards any more may be added again.
      // Two accounts adding an unguarded child at once cannot both see it unguarded.
      await lockUser(trx, card.user_id)
      const guardians = await trx
        .selectFrom('family_links')
        .select('manager_user_id')
        .where('member_user_id', '=', card.user_id)
        .where('ended_at', 'is', null)
        .execute()
      if (guardians.some((g) => g.manager_user_id === managerId)) {
        throw badRequest(FAMILY_MESSAGES.already)
      }
      if (guardians.length > 0) throw badRequest(FAMILY_MESSAGES.childGuarded)
      childId = card.user_id
    } else {
      childId = randomUUID()
      const at = now.toISOString()
      await trx
        .insertInto('users')
        .values({
          id: childId,
          mobile: null,
          nickname: CHILD_NICKNAME,
          avatar_url: null,
          gender: 'unknown',
          role: 'patient',
          password_hash: null,
          wechat_openid: null,
          created_at: at,
          updated_at: at,
          deleted_at: null,
        })
        .execute()
      await trx
        .insertInto('id_cards')
        .values({
          id: randomUUID(),
          user_id: childId,
          holder_encrypted: cipher.encrypt(input.name),
          number_encrypted: cipher.encrypt(idNumber),
          number_hash: numberHash,
          created_at: at,
          verified_at: null,
          verified_by: null,
        })
        .execute()
    }
    return insertLink(trx, { managerId, memberId: childId, kind: 'child', relation: 'child' }, now)
  })
  const facts = await personFacts(db, cipher, [link.member_user_id])
  return toMember(link, facts.get(link.member_user_id))
}

/** The caller's own phone, to refuse adding oneself before a code is sent. */
export async function ownMobile(db: DB, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('mobile')
    .where('id', '=', userId)
    .executeTakeFirst()
  return row?.mobile ?? null
}

/** Sends the 'family' code to the adult's phone, under the SMS limits of every code. */
export async function sendAdultCode(
  db: DB,
  sms: SmsProvider,
  managerId: string,
  input: { mobile: string; ip: string },
  now: Date,
): Promise<void> {
  if ((await ownMobile(db, managerId)) === input.mobile) throw badRequest(FAMILY_MESSAGES.self)
  // Bound to the asking account: the code agrees to this manager, not to whoever learns it.
  await issueSmsCode(db, sms, {
    mobile: input.mobile,
    purpose: 'family',
    scope: managerId,
    ip: input.ip,
    now,
  })
}

export async function addAdult(
  db: DB,
  cipher: FieldCipher,
  managerId: string,
  input: { mobile: string; code: string; relation: FamilyRelation; ip: string },
  now: Date,
): Promise<FamilyMember> {
  if ((await ownMobile(db, managerId)) === input.mobile) throw badRequest(FAMILY_MESSAGES.self)
  // Outside the transaction: a wrong code must count as a try even though the add then fails.
  await consumeSmsCode(db, {
    mobile: input.mobile,
    purpose: 'family',
    scope: managerId,
    code: input.code,
    now,
    ip: input.ip,
  })
  let member = await findUserByMobile(db, input.mobile)
  if (!member) {
    try {
      member = await createUser(db, { mobile: input.mobile, now })
    } catch (error) {
      // Registered a moment ago (by the person, or a parallel add): use that account.
      member = await findUserByMobile(db, input.mobile)
      if (!member) throw error
    }
  }
  const memberId = member.id
  const link = await addLink(db, (trx) =>
    insertLink(trx, { managerId, memberId, kind: 'adult', relation: input.relation }, now),
  )
  const facts = await personFacts(db, cipher, [memberId])
  return toMember(link, facts.get(memberId))
}

/** The manager ends a link (a child's or an adult's). */
export async function removeMember(
  db: DB,
  managerId: string,
  linkId: string,
  now: Date,
): Promise<void> {
  await endLink(db, linkId, 'manager_user_id', managerId, now)
}

/** An adult member ends someone's management of them, from their own account. */
export async function leaveManager(
  db: DB,
  memberId: string,
  linkId: string,
  now: Date,
): Promise<void> {
  await endLink(db, linkId, 'member_user_id', memberId, now)
}

/**
 * Ends a link, by the party named in `side`, and in the same transaction revokes every grant the
 * manager made of the member's records while managing them (授权 with personId): a former manager's
 * links and account grants must stop at the next request like their own reads do, and the member
 * never chose them. Grants the member made themselves stay.
 */
async function endLink(
  db: DB,
  linkId: string,
  side: 'manager_user_id' | 'member_user_id',
  userId: string,
  now: Date,
): Promise<void> {
  const at = now.toISOString()
  await db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable('family_links')
      .set({ ended_at: at })
      .where('id', '=', linkId)
      .where(side, '=', userId)
      .where('ended_at', 'is', null)
      .returning(['manager_user_id', 'member_user_id'])
      .executeTakeFirst()
    if (!ended) throw notFound(FAMILY_MESSAGES.notFound)
    await noteWithdrawn(
      trx,
      { userId, purpose: 'family', targetId: linkId, channel: CONSENT_CHANNELS.familyEnd },
      now,
    )
    await trx
      .updateTable('grants')
      .set({ revoked_at: at })
      .where('person_user_id', '=', ended.member_user_id)
      .where('created_by_user_id', '=', ended.manager_user_id)
      .where('revoked_at', 'is', null)
      .execute()
  })
}

/**
 * Account deletion (profile/account.ts eraseAccount), inside its transaction: every family link of
 * the account goes (as manager and as member), and so do its messages. Answers the children it
 * was the last guardian of: nobody can act for them any more, so the caller erases them too.
 */
export async function forgetFamilyOf(db: DB, userId: string): Promise<string[]> {
  const children = await db
    .selectFrom('family_links')
    .select('member_user_id')
    .where('manager_user_id', '=', userId)
    .where('kind', '=', 'child')
    .where('ended_at', 'is', null)
    .execute()
  await db
    .deleteFrom('family_links')
    .where((eb) => eb.or([eb('manager_user_id', '=', userId), eb('member_user_id', '=', userId)]))
    .execute()
  // Joint-guardian invitations it sent, or that were about it as a child (guardians.ts).
  await db
    .deleteFrom('guardian_invitations')
    .where((eb) => eb.or([eb('inviter_user_id', '=', userId), eb('child_user_id', '=', userId)]))
    .execute()
  await db.deleteFrom('messages').where('user_id', '=', userId).execute()
  const orphans: string[] = []
  for (const { member_user_id: childId } of children) {
    const guardian = await db
      .selectFrom('family_links')
      .select('id')
      .where('member_user_id', '=', childId)
      .where('ended_at', 'is', null)
      .executeTakeFirst()
    if (!guardian && (await isLoginlessPerson(db, childId))) orphans.push(childId)
  }
  return orphans
}

/**
 * Account merge (profile/account.ts mergeUser), inside its transaction: the absorbed account's
 * messages and family links move to the account it is merged into. A link that would join the
 * account to itself, or repeat one it already has, is ended instead (one active link per pair).
 */
export async function mergeFamily(
  db: DB,
  fromId: string,
  intoId: string,
  now: Date,
): Promise<void> {
  const at = now.toISOString()
  await db.updateTable('messages').set({ user_id: intoId }).where('user_id', '=', fromId).execute()
  await db
    .updateTable('guardian_invitations')
    .set({ inviter_user_id: intoId })
    .where('inviter_user_id', '=', fromId)
    .execute()
  const links = await db
    .selectFrom('family_links')
    .selectAll()
    .where((eb) => eb.or([eb('manager_user_id', '=', fromId), eb('member_user_id', '=', fromId)]))
    .execute()
  for (const link of links) {
    const manager = link.manager_user_id === fromId ? intoId : link.manager_user_id
    const member = link.member_user_id === fromId ? intoId : link.member_user_id
    if (link.ended_at === null) {
      const duplicate =
        manager === member ||
        (await db
          .selectFrom('family_links')
          .select('id')
          .where('manager_user_id', '=', manager)
          .where('member_user_id', '=', member)
          .where('ended_at', 'is', null)
          .where('id', '!=', link.id)
          .executeTakeFirst())
      if (duplicate) {
        await db
          .updateTable('family_links')
          .set({ ended_at: at })
          .where('id', '=', link.id)
          .execute()
        continue
      }
    } else if (manager === member) {
      // Ended history that would name one account twice stays with the absorbed row.
      continue
    }
    await db
      .updateTable('family_links')
      .set({ manager_user_id: manager, member_user_id: member })
      .where('id', '=', link.id)
      .execute()
  }
}
