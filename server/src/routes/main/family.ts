import type { FastifyInstance } from 'fastify'
import {
  acceptGuardianInvitation,
  addFamilyAdult,
  addFamilyChild,
  declineGuardianInvitation,
  inviteGuardian,
  leaveFamilyManager,
  listFamily,
  listGuardianInvitations,
  removeFamilyMember,
  sendFamilyCode,
  sendGuardianInvitationCode,
} from '@contract/main/family'
import * as guardians from '../../domain/family/guardians'
import * as family from '../../domain/family/members'
import { currentUser } from '../../http/auth'
import { route } from '../../http/route'

/** Main service, 亲情卡 (contract/main/family.ts). Who sees whose records: domain/records/access.ts. */
export default async function mainFamilyRoutes(app: FastifyInstance): Promise<void> {
  route(app, listFamily, async (_input, { request }) =>
    family.listFamily(app.db, app.personalCipher, currentUser(request).id),
  )

  route(app, addFamilyChild, async (input, { request }) =>
    family.addChild(app.db, app.personalCipher, currentUser(request).id, input, app.now()),
  )

  route(app, sendFamilyCode, async ({ mobile }, { request }) => {
    await family.sendAdultCode(
      app.db,
      app.providers.sms,
      currentUser(request).id,
      { mobile, ip: request.ip },
      app.now(),
    )
    return { ok: true as const }
  })

  route(app, addFamilyAdult, async (input, { request }) =>
    family.addAdult(
      app.db,
      app.personalCipher,
      currentUser(request).id,
      { ...input, ip: request.ip },
      app.now(),
    ),
  )

  route(app, removeFamilyMember, async ({ memberId }, { request }) => {
    await family.removeMember(app.db, currentUser(request).id, memberId, app.now())
    return { ok: true as const }
  })

  route(app, leaveFamilyManager, async ({ managerLinkId }, { request }) => {
    await family.leaveManager(app.db, currentUser(request).id, managerLinkId, app.now())
    return { ok: true as const }
  })

  // Joint guardians of a child (domain/family/guardians.ts).
  route(app, inviteGuardian, async (input, { request }) =>
    guardians.inviteGuardian(app.db, app.personalCipher, currentUser(request).id, input, app.now()),
  )

  route(app, listGuardianInvitations, async (_input, { request }) =>
    guardians.listGuardianInvitations(
      app.db,
      app.personalCipher,
      currentUser(request).id,
      app.now(),
    ),
  )

  route(app, sendGuardianInvitationCode, async ({ invitationId }, { request }) => {
    await guardians.sendGuardianInvitationCode(
      app.db,
      app.providers.sms,
      currentUser(request).id,
      { invitationId, ip: request.ip },
      app.now(),
    )
    return { ok: true as const }
  })

  route(app, acceptGuardianInvitation, async (input, { request }) =>
    guardians.acceptGuardianInvitation(
      app.db,
      app.personalCipher,
      currentUser(request).id,
      { ...input, ip: request.ip },
      app.now(),
    ),
  )

  route(app, declineGuardianInvitation, async ({ invitationId }, { request }) => {
    await guardians.declineGuardianInvitation(
      app.db,
      currentUser(request).id,
      invitationId,
      app.now(),
    )
    return { ok: true as const }
  })
}
