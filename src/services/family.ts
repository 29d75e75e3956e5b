import {
  acceptGuardianInvitation as acceptGuardianInvitationEndpoint,
  declineGuardianInvitation as declineGuardianInvitationEndpoint,
  inviteGuardian as inviteGuardianEndpoint,
  listGuardianInvitations as listGuardianInvitationsEndpoint,
  sendGuardianInvitationCode as sendGuardianInvitationCodeEndpoint,
  addFamilyAdult as addFamilyAdultEndpoint,
  addFamilyChild as addFamilyChildEndpoint,
  leaveFamilyManager as leaveFamilyManagerEndpoint,
  listFamily as listFamilyEndpoint,
  removeFamilyMember as removeFamilyMemberEndpoint,
  sendFamilyCode as sendFamilyCodeEndpoint,
  CHILD_AGE_LIMIT,
  FAMILY_MEMBERS_MAX,
  FAMILY_MESSAGES,
  FAMILY_RELATIONS,
  FAMILY_RELATION_LABELS,
  GUARDIAN_INVITATION_DAYS,
  type FamilyManager,
  type FamilyMember,
  type FamilyRelation,
  type GuardianInvitation,
} from '@contract/main/family'
import type { OutputOf } from '@contract/endpoint'
import { callEndpoint, type CallOptions } from './api'

/** 亲情卡: the members I manage, who manages me, and adding or ending those links (contract/main/family.ts). */

export type { FamilyManager, FamilyMember, FamilyRelation, GuardianInvitation }
export {
  GUARDIAN_INVITATION_DAYS,
  CHILD_AGE_LIMIT,
  FAMILY_MEMBERS_MAX,
  FAMILY_MESSAGES,
  FAMILY_RELATIONS,
  FAMILY_RELATION_LABELS,
}

export type Family = OutputOf<typeof listFamilyEndpoint>

// The page and the 当前就诊人 switcher draw their own loading state.
const QUIET: CallOptions = { loading: false }

export function listFamily(options: CallOptions = QUIET): Promise<Family> {
  return callEndpoint(listFamilyEndpoint, {}, options)
}

export function addFamilyChild(name: string, idNumber: string): Promise<FamilyMember> {
  return callEndpoint(addFamilyChildEndpoint, { name, idNumber, guardianConfirmed: true })
}

/** The code goes to the member's own phone: they agree by telling it to the person adding them. */
export async function sendFamilyCode(mobile: string): Promise<void> {
  await callEndpoint(sendFamilyCodeEndpoint, { mobile })
}

export function addFamilyAdult(
  mobile: string,
  code: string,
  relation: FamilyRelation,
): Promise<FamilyMember> {
  return callEndpoint(addFamilyAdultEndpoint, { mobile, code, relation })
}

export async function removeFamilyMember(memberId: string): Promise<void> {
  await callEndpoint(removeFamilyMemberEndpoint, { memberId })
}

export async function leaveFamilyManager(managerLinkId: string): Promise<void> {
  await callEndpoint(leaveFamilyManagerEndpoint, { managerLinkId })
}

/** 共同监护人: invites the other parent of a child I added, by their phone. */
export async function inviteGuardian(memberId: string, mobile: string): Promise<void> {
  await callEndpoint(inviteGuardianEndpoint, { memberId, mobile })
}

/** Invitations to my own phone to guard a child with the person who added them. */
export async function listGuardianInvitations(
  options: CallOptions = QUIET,
): Promise<GuardianInvitation[]> {
  return (await callEndpoint(listGuardianInvitationsEndpoint, {}, options)).items
}

/** The accepting code goes to my own phone. */
export async function sendGuardianInvitationCode(invitationId: string): Promise<void> {
  await callEndpoint(sendGuardianInvitationCodeEndpoint, { invitationId })
}

export function acceptGuardianInvitation(
  invitationId: string,
  code: string,
): Promise<FamilyMember> {
  return callEndpoint(acceptGuardianInvitationEndpoint, { invitationId, code })
}

export async function declineGuardianInvitation(invitationId: string): Promise<void> {
  await callEndpoint(declineGuardianInvitationEndpoint, { invitationId })
}

/** 子女 张*宝: the relation, then the masked name (or phone, for an adult without a bound name). */
export function memberLabel(member: FamilyMember | FamilyManager): string {
  const who = member.nameMasked ?? member.mobileMasked ?? ''
  return who ? `${member.relationLabel} ${who}` : member.relationLabel
}
