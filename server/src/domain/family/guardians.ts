import { randomUUID } from 'node:crypto'
import {
  FAMILY_MESSAGES,
  type FamilyMember,
  GUARDIAN_INVITATION_DAYS,
  type GuardianInvitation,
} from '@contract/main/family'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { GuardianInvitationsTable } from '../../db/schema'
import { badRequest, notFound, tooManyRequests } from '../../http/errors'
import {
  consumeSmsCode,
  DAY,
  describeWait,
  findUserByMobile,
  issueSmsCode,
  type SmsProvider,
} from '../identity'
import { reserve } from '../limits'
import { createMessage } from '../messages'
import { addLink, insertLink, ownMobile, personFacts, toMember } from './members'

/*
 * A child's second guardian (亲情卡 共同监护人). Adding a child by name and ID number is refused once
 * someone guards them (members.ts addChild: both are printed on every report), so the other parent
 * comes in by invitation of the guardian who added the child:
 *
 * 1. The guardian invites a phone number (inviteGuardian); an account of that phone gets a message.
 * 2. The invitee, signed in with that phone, sees the invitation in 亲情卡 and asks for a code to
 *    their own phone (scoped to the invitation, so no other code answers for it).
 * 3. With the code they accept: they become the child's guardian as the inviter is, in one
 *    transaction that checks the inviter still guards the child and the invitee's card has room.
 *
 * An invitation waits GUARDIAN_INVITATION_DAYS days; inviting the same phone again renews it.
 */

/** Invitations one guardian may send a day: a household's need, not a way to probe phone numbers. */
export const GUARDIAN_INVITATIONS_PER_DAY = 10

const codeScope = (invitationId: string) => `guardian:${invitationId}`

/** The caller's own active link to a child: someone else's link is 404, as if it did not exist. */
async function ownChildLink(db: DB, managerId: string, linkId: string) {
  const link = await db
    .selectFrom('family_links')
    .selectAll()
    .where('id', '=', linkId)
    .where('manager_user_id', '=', managerId)
    .where('ended_at', 'is', null)
    .executeTakeFirst()
  if (!link) throw notFound(FAMILY_MESSAGES.notFound)
  if (link.kind !== 'child') throw badRequest(FAMILY_MESSAGES.notGuardian)
  return link
}

async function guards(db: DB, managerId: string, childId: string): Promise<boolean> {
  const row = await db
    .selectFrom('family_links')
    .select('id')
    .where('manager_user_id', '=', managerId)
    .where('member_user_id', '=', childId)
    .where('kind', '=', 'child')
    .where('ended_at', 'is', null)
    .executeTakeFirst()
  return row !== undefined
}

export async function inviteGuardian(
  db: DB,
  cipher: FieldCipher,
  inviterId: string,
  input: { memberId: string; mobile: string },
  now: Date,
): Promise<{ expiresAt: string }> {
  const link = await ownChildLink(db, inviterId, input.memberId)
  if ((await ownMobile(db, inviterId)) === input.mobile)
    throw badRequest(FAMILY_MESSAGES.inviteSelf)
  const invitee = await findUserByMobile(db, input.mobile)
  if (invitee && (await guards(db, invitee.id, link.member_user_id))) {
    throw badRequest(FAMILY_MESSAGES.alreadyGuardian)
  }
  const slot = await reserve(db, {
    key: `guardian-invite:${inviterId}`,
    limit: GUARDIAN_INVITATIONS_PER_DAY,
    windowMs: DAY,
    now,
  })
  if (!slot.ok) throw tooManyRequests(`邀请次数过多，请 ${describeWait(slot.retryAfterMs)}后再试`)

  const at = now.toISOString()
  const expiresAt = new Date(now.getTime() + GUARDIAN_INVITATION_DAYS * DAY).toISOString()
  await db.transaction().execute(async (trx) => {
    // One live invitation per child and phone: asking again renews it rather than adding another.
    const renewed = await trx
      .updateTable('guardian_invitations')
      .set({ expires_at: expiresAt, inviter_user_id: inviterId })
      .where('child_user_id', '=', link.member_user_id)
      .where('invitee_mobile', '=', input.mobile)
      .where('accepted_at', 'is', null)
      .where('declined_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst()
    if (Number(renewed.numUpdatedRows) === 0) {
      await trx
        .insertInto('guardian_invitations')
        .values({
          id: randomUUID(),
          child_user_id: link.member_user_id,
          inviter_user_id: inviterId,
          invitee_mobile: input.mobile,
          created_at: at,
          expires_at: expiresAt,
          accepted_at: null,
          declined_at: null,
        })
        .execute()
    }
    if (invitee) {
      const facts = await personFacts(trx, cipher, [inviterId, link.member_user_id])
      const inviter = facts.get(inviterId)
      await createMessage(
        trx,
        {
          userId: invitee.id,
          kind: 'system',
          title: '共同监护邀请',
          body:
            `${inviter?.nameMasked ?? inviter?.mobileMasked ?? '一位家长'}邀请您一同监护` +
            `${facts.get(link.member_user_id)?.nameMasked ?? '孩子'}。请在「亲情卡」中查看并接受，` +
            `${GUARDIAN_INVITATION_DAYS} 天内有效。`,
          link: { route: 'familyCard', params: {} },
        },
        now,
      )
    }
  })
  return { expiresAt }
}

/** A pending invitation to the caller's phone, whose inviter still guards the child. */
async function pendingFor(
  db: DB,
  userId: string,
  now: Date,
  invitationId?: string,
): Promise<GuardianInvitationsTable[]> {
  const mobile = await ownMobile(db, userId)
  if (!mobile) return []
  let query = db
    .selectFrom('guardian_invitations')
    .innerJoin('family_links', (join) =>
      join
        .onRef('family_links.member_user_id', '=', 'guardian_invitations.child_user_id')
        .onRef('family_links.manager_user_id', '=', 'guardian_invitations.inviter_user_id'),
    )
    .selectAll('guardian_invitations')
    .where('guardian_invitations.invitee_mobile', '=', mobile)
    .where('guardian_invitations.accepted_at', 'is', null)
    .where('guardian_invitations.declined_at', 'is', null)
    .where('guardian_invitations.expires_at', '>', now.toISOString())
    .where('family_links.kind', '=', 'child')
    .where('family_links.ended_at', 'is', null)
  if (invitationId) query = query.where('guardian_invitations.id', '=', invitationId)
  return query.orderBy('guardian_invitations.created_at', 'desc').execute()
}

async function pendingOne(
  db: DB,
  userId: string,
  invitationId: string,
  now: Date,
): Promise<GuardianInvitationsTable> {
  const [invitation] = await pendingFor(db, userId, now, invitationId)
  if (!invitation) throw notFound(FAMILY_MESSAGES.invitationGone)
  return invitation
}

export async function listGuardianInvitations(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  now: Date,
): Promise<{ items: GuardianInvitation[] }> {
  const rows = await pendingFor(db, userId, now)
  const facts = await personFacts(db, cipher, [
    ...rows.map((row) => row.child_user_id),
    ...rows.map((row) => row.inviter_user_id),
  ])
  return {
    items: rows.map((row) => ({
      id: row.id,
      childNameMasked: facts.get(row.child_user_id)?.nameMasked ?? null,
      inviterNameMasked: facts.get(row.inviter_user_id)?.nameMasked ?? null,
      inviterMobileMasked: facts.get(row.inviter_user_id)?.mobileMasked ?? null,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    })),
  }
}

/** Sends the accepting code to the caller's own phone, under the SMS limits of every code. */
export async function sendGuardianInvitationCode(
  db: DB,
  sms: SmsProvider,
  userId: string,
  input: { invitationId: string; ip: string },
  now: Date,
): Promise<void> {
  const invitation = await pendingOne(db, userId, input.invitationId, now)
  await issueSmsCode(db, sms, {
    mobile: invitation.invitee_mobile,
    purpose: 'family',
    scope: codeScope(invitation.id),
    ip: input.ip,
    now,
  })
}

export async function acceptGuardianInvitation(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  input: { invitationId: string; code: string; ip: string },
  now: Date,
): Promise<FamilyMember> {
  const invitation = await pendingOne(db, userId, input.invitationId, now)
  // Outside the transaction: a wrong code must count as a try even though the accept then fails.
  await consumeSmsCode(db, {
    mobile: invitation.invitee_mobile,
    purpose: 'family',
    scope: codeScope(invitation.id),
    code: input.code,
    now,
    ip: input.ip,
  })
  const at = now.toISOString()
  const link = await addLink(db, async (trx) => {
    // Answered once: a second accept (a double tap, another device) finds it no longer pending.
    const taken = await trx
      .updateTable('guardian_invitations')
      .set({ accepted_at: at })
      .where('id', '=', invitation.id)
      .where('accepted_at', 'is', null)
      .where('declined_at', 'is', null)
      .executeTakeFirst()
    if (Number(taken.numUpdatedRows) === 0) throw notFound(FAMILY_MESSAGES.invitationGone)
    // The inviter may have ended their own link since: then there is nothing to join.
    if (!(await guards(trx, invitation.inviter_user_id, invitation.child_user_id))) {
      throw notFound(FAMILY_MESSAGES.invitationGone)
    }
    const added = await insertLink(
      trx,
      { managerId: userId, memberId: invitation.child_user_id, kind: 'child', relation: 'child' },
      now,
    )
    const facts = await personFacts(trx, cipher, [userId, invitation.child_user_id])
    const accepter = facts.get(userId)
    await createMessage(
      trx,
      {
        userId: invitation.inviter_user_id,
        kind: 'system',
        title: '共同监护邀请已接受',
        body: `${accepter?.nameMasked ?? accepter?.mobileMasked ?? '对方'}已接受邀请，与您一同监护${facts.get(invitation.child_user_id)?.nameMasked ?? '孩子'}。`,
        link: { route: 'familyCard', params: {} },
      },
      now,
    )
    return added
  })
  const facts = await personFacts(db, cipher, [link.member_user_id])
  return toMember(link, facts.get(link.member_user_id))
}

export async function declineGuardianInvitation(
  db: DB,
  userId: string,
  invitationId: string,
  now: Date,
): Promise<void> {
  const invitation = await pendingOne(db, userId, invitationId, now)
  await db
    .updateTable('guardian_invitations')
    .set({ declined_at: now.toISOString() })
    .where('id', '=', invitation.id)
    .where('accepted_at', 'is', null)
    .execute()
}
