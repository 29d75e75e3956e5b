import { z } from 'zod/mini'
import { IdSchema, MobileSchema, OkSchema, SmsCodeSchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { IdCardNumberSchema, RealNameSchema } from './account'

/*
 * Family members (亲情卡 / 关系卡, `/pages/relationCard/relationCard`, issue 9).
 *
 * - A child under 14 is managed by the guardian (PIPL art. 31): the guardian gives the child's name
 *   and resident ID number and confirms being the guardian. The child is a person without a login
 *   of their own; hospital records match the child's ID number and name as they match an adult's
 *   bound card.
 * - An adult member agrees by an SMS code sent to their own phone (the person adding them types the
 *   code the member tells them). The member is the account of that phone (made for it if none, so
 *   they can sign in with an SMS code) and can end it from their own account at any time.
 *
 * - A child has at most the guardians who took them on together: the guardian who added the child
 *   invites the other parent by phone (共同监护人); the invitee, signed in with that phone, accepts in
 *   亲情卡 with a code sent to their own phone. Knowing the child's name and ID number is not enough.
 *
 * 当前就诊人: the records lists take `personId` (a member's personId; default the caller) and the
 * server checks the caller manages that person at every request. A member's records are visible to
 * their active managers and to nobody else the member did not allow; grants made for a member are
 * the member's (contract/main/grants.ts `personId`).
 */

export const FAMILY_RELATIONS = ['child', 'spouse', 'parent', 'sibling', 'other'] as const
export const FamilyRelationSchema = z.enum(FAMILY_RELATIONS, { error: '请选择与您的关系' })
export type FamilyRelation = z.infer<typeof FamilyRelationSchema>
export const FAMILY_RELATION_LABELS: Record<FamilyRelation, string> = {
  child: '子女',
  spouse: '配偶',
  parent: '父母',
  sibling: '兄弟姐妹',
  other: '其他亲属',
}

/** PIPL art. 28/31: under 14 a child's personal information needs the guardian's consent. */
export const CHILD_AGE_LIMIT = 14
/** Members one account manages: a household, not a clinic. */
export const FAMILY_MEMBERS_MAX = 10

export const FAMILY_MESSAGES = {
  guardianConfirm: '请确认您是该儿童的监护人',
  notChild: `年满 ${CHILD_AGE_LIMIT} 周岁的家人需本人手机验证码同意后添加`,
  self: '不能添加自己',
  already: '该家人已在您的亲情卡中',
  tooMany: `最多添加 ${FAMILY_MEMBERS_MAX} 位家人`,
  notFound: '家人不存在或已解除关系',
  notManaged: '您无权查看该就诊人的记录',
  childGuarded: '该儿童已由其他监护人添加。如需一同监护，请对方在亲情卡中邀请您为共同监护人',
  notGuardian: '只能为您添加的儿童邀请共同监护人',
  inviteSelf: '不能邀请自己',
  alreadyGuardian: '对方已是该儿童的监护人',
  invitationGone: '邀请不存在、已处理或已过期',
  invitationSent: '邀请已发送，对方用该手机号登录后在「亲情卡」中接受',
} as const

export const FamilyMemberSchema = z.object({
  /** The link's id (removeFamilyMember). */
  id: z.string(),
  /** The member as a person: pass as `personId` to the records lists and createGrant. */
  personId: z.string(),
  kind: z.enum(['child', 'adult']),
  relation: FamilyRelationSchema,
  relationLabel: z.string(),
  /** 张*三 */
  nameMasked: z.nullable(z.string()),
  mobileMasked: z.nullable(z.string()),
  createdAt: z.string(),
})
export type FamilyMember = z.infer<typeof FamilyMemberSchema>

/** Someone who manages the caller (shown to an adult member, who can end it). */
export const FamilyManagerSchema = z.object({
  id: z.string(),
  nameMasked: z.nullable(z.string()),
  mobileMasked: z.nullable(z.string()),
  relation: FamilyRelationSchema,
  relationLabel: z.string(),
  createdAt: z.string(),
})
export type FamilyManager = z.infer<typeof FamilyManagerSchema>

export const listFamily = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/family',
  input: z.object({}),
  output: z.object({
    /** The caller as 本人 (the first choice of 当前就诊人). */
    self: z.object({ personId: z.string(), nameMasked: z.nullable(z.string()) }),
    members: z.array(FamilyMemberSchema),
    managers: z.array(FamilyManagerSchema),
  }),
  auth: true,
  summary: '亲情卡：我管理的家人，以及管理我的人',
})

export const addFamilyChild = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/family/children',
  input: z.object({
    name: RealNameSchema,
    idNumber: IdCardNumberSchema,
    /** The guardian's statement (PIPL art. 31); must be true. */
    guardianConfirmed: z.literal(true, { error: FAMILY_MESSAGES.guardianConfirm }),
  }),
  output: FamilyMemberSchema,
  auth: true,
  summary: '添加未满 14 周岁的子女（监护人确认）',
})

export const sendFamilyCode = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/family/adults/code',
  input: z.object({ mobile: MobileSchema }),
  output: OkSchema,
  auth: true,
  summary: '向要添加的成年家人手机发送同意验证码',
})

export const addFamilyAdult = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/family/adults',
  input: z.object({ mobile: MobileSchema, code: SmsCodeSchema, relation: FamilyRelationSchema }),
  output: FamilyMemberSchema,
  auth: true,
  summary: '添加成年家人（对方手机验证码同意）',
})

export const removeFamilyMember = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/family/members/:memberId',
  input: z.object({ memberId: IdSchema }),
  output: OkSchema,
  auth: true,
  summary: '解除与家人的关系（管理人操作）',
})

export const leaveFamilyManager = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/family/managers/:managerLinkId',
  input: z.object({ managerLinkId: IdSchema }),
  output: OkSchema,
  auth: true,
  summary: '成年家人本人解除他人对自己的管理',
})

/** How long an invitation to be a child's second guardian waits for an answer. */
export const GUARDIAN_INVITATION_DAYS = 7

export const GuardianInvitationSchema = z.object({
  id: z.string(),
  /** The child, masked as on every list. */
  childNameMasked: z.nullable(z.string()),
  inviterNameMasked: z.nullable(z.string()),
  inviterMobileMasked: z.nullable(z.string()),
  createdAt: z.string(),
  expiresAt: z.string(),
})
export type GuardianInvitation = z.infer<typeof GuardianInvitationSchema>

export const inviteGuardian = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/family/members/:memberId/guardian-invitations',
  input: z.object({ memberId: IdSchema, mobile: MobileSchema }),
  output: z.object({ expiresAt: z.string() }),
  auth: true,
  summary: '邀请另一位监护人共同监护我添加的儿童（对方手机号）',
})

export const listGuardianInvitations = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/family/guardian-invitations',
  input: z.object({}),
  output: z.object({ items: z.array(GuardianInvitationSchema) }),
  auth: true,
  summary: '发给我（本账号手机号）的共同监护邀请',
})

export const sendGuardianInvitationCode = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/family/guardian-invitations/:invitationId/code',
  input: z.object({ invitationId: IdSchema }),
  output: OkSchema,
  auth: true,
  summary: '接受共同监护邀请：向本人手机发送验证码',
})

export const acceptGuardianInvitation = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/family/guardian-invitations/:invitationId/accept',
  input: z.object({ invitationId: IdSchema, code: SmsCodeSchema }),
  output: FamilyMemberSchema,
  auth: true,
  summary: '接受共同监护邀请（本人手机验证码）',
})

export const declineGuardianInvitation = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/family/guardian-invitations/:invitationId/decline',
  input: z.object({ invitationId: IdSchema }),
  output: OkSchema,
  auth: true,
  summary: '拒绝共同监护邀请',
})
