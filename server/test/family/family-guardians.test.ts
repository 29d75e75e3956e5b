import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { envelope } from '@contract/envelope'
import {
  addFamilyChild,
  FAMILY_MESSAGES,
  GUARDIAN_INVITATION_DAYS,
  listFamily,
  listGuardianInvitations,
} from '@contract/main/family'
import { GUARDIAN_INVITATIONS_PER_DAY } from '../../src/domain/family/guardians'
import { createSession } from '../../src/domain/identity'
import { readOutbox } from '../../src/providers/sms'
import {
  buildProfileApp,
  freshMobile,
  type ProfileApp,
  signUp,
  type TestUser,
  validIdNumber,
} from '../domain/profile/support'
import { client } from '../records/patient-support'

/*
 * 亲情卡 joint guardians (domain/family/guardians.ts): the guardian who added a child invites the
 * other parent by phone; the invitee, signed in with that phone, accepts with a code to it.
 */

let ctx: ProfileApp
let http: ReturnType<typeof client>
const errorOf = (res: { body: string }) => (JSON.parse(res.body) as { error: string }).error
let sequence = 700

before(async () => {
  ctx = await buildProfileApp({ logLevel: 'silent' })
  http = client(ctx.app)
})

/** A guardian with a child of their own adding; answers the child's link (member) id and person id. */
async function guardianWithChild(name: string) {
  const guardian = await signUp(ctx.app.db, ctx.clock.now())
  const added = await http.send('POST', '/main/family/children', guardian.token, {
    name,
    idNumber: validIdNumber('20220303', (sequence += 1)),
    guardianConfirmed: true,
  })
  assert.equal(added.statusCode, 200, added.body)
  const child = envelope(addFamilyChild.output).parse(added.json()).data!
  return { guardian, child }
}

const invite = (guardian: TestUser, memberId: string, mobile: string) =>
  http.send('POST', `/main/family/members/${memberId}/guardian-invitations`, guardian.token, {
    mobile,
  })

async function invitationsOf(user: TestUser) {
  const res = await http.get('/main/family/guardian-invitations', user.token)
  assert.equal(res.statusCode, 200, res.body)
  return envelope(listGuardianInvitations.output).parse(res.json()).data!.items
}

/** Asks for the accepting code (a minute after any earlier code) and reads it from the outbox. */
async function acceptCode(user: TestUser, invitationId: string): Promise<string> {
  ctx.clock.advance(61_000)
  const sent = await http.send(
    'POST',
    `/main/family/guardian-invitations/${invitationId}/code`,
    user.token,
  )
  assert.equal(sent.statusCode, 200, sent.body)
  return (await readOutbox(ctx.app.db, user.mobile!, { purposes: ['family'] })).at(-1)!.code
}

const accept = (user: TestUser, invitationId: string, code: string) =>
  http.send('POST', `/main/family/guardian-invitations/${invitationId}/accept`, user.token, {
    code,
  })

async function familyOf(user: TestUser) {
  const res = await http.get('/main/family', user.token)
  return envelope(listFamily.output).parse(res.json()).data!
}

test('the other parent, invited by phone, accepts with a code to their own phone and guards the child too', async () => {
  const { guardian, child } = await guardianWithChild('孙小六')
  const parent = await signUp(ctx.app.db, ctx.clock.now())
  const sent = await invite(guardian, child.id, parent.mobile!)
  assert.equal(sent.statusCode, 200, sent.body)

  // The invitee has a message that leads to 亲情卡, and the invitation there.
  const message = await ctx.app.db
    .selectFrom('messages')
    .selectAll()
    .where('user_id', '=', parent.user.id)
    .executeTakeFirstOrThrow()
  assert.equal(message.title, '共同监护邀请')
  assert.match(message.body, /孙\*六|\*小六|孙\*\*/)
  assert.deepEqual(JSON.parse(message.link!), { route: 'familyCard', params: {} })
  const [invitation] = await invitationsOf(parent)
  assert.ok(invitation)
  assert.equal(invitation.childNameMasked, child.nameMasked)
  const days = (Date.parse(invitation.expiresAt) - ctx.clock.now().getTime()) / 86_400_000
  assert.equal(Math.round(days), GUARDIAN_INVITATION_DAYS)
  // Nobody else sees it, not even the inviter.
  assert.deepEqual(await invitationsOf(guardian), [])

  const code = await acceptCode(parent, invitation.id)
  const wrong = await accept(parent, invitation.id, code === '000000' ? '111111' : '000000')
  assert.equal(wrong.statusCode, 400)
  const accepted = await accept(parent, invitation.id, code)
  assert.equal(accepted.statusCode, 200, accepted.body)

  // Both guard the child now; the inviter is told.
  const mine = await familyOf(parent)
  assert.deepEqual(
    mine.members.map((member) => [member.personId, member.kind]),
    [[child.personId, 'child']],
  )
  assert.equal((await familyOf(guardian)).members.length, 1)
  const told = await ctx.app.db
    .selectFrom('messages')
    .select('title')
    .where('user_id', '=', guardian.user.id)
    .execute()
  assert.ok(told.some((row) => row.title === '共同监护邀请已接受'))
  // Answered once.
  assert.deepEqual(await invitationsOf(parent), [])
  const twice = await accept(parent, invitation.id, code)
  assert.equal(twice.statusCode, 404)
})

test('a code another account asked for, or another invitation’s code, does not accept', async () => {
  const { guardian, child } = await guardianWithChild('周小七')
  const parent = await signUp(ctx.app.db, ctx.clock.now())
  assert.equal((await invite(guardian, child.id, parent.mobile!)).statusCode, 200)
  const [invitation] = await invitationsOf(parent)
  // The parent's phone also got a family code from someone adding them as an adult member.
  ctx.clock.advance(61_000)
  const someone = await signUp(ctx.app.db, ctx.clock.now())
  const adultCode = await http.send('POST', '/main/family/adults/code', someone.token, {
    mobile: parent.mobile,
  })
  assert.equal(adultCode.statusCode, 200, adultCode.body)
  const other = (await readOutbox(ctx.app.db, parent.mobile!, { purposes: ['family'] })).at(-1)!
  const refused = await accept(parent, invitation!.id, other.code)
  assert.equal(refused.statusCode, 400)
  assert.equal(errorOf(refused), '请先获取验证码')
})

test('only the guardian of the child invites, never themselves nor someone already guarding', async () => {
  const { guardian, child } = await guardianWithChild('吴小八')
  const stranger = await signUp(ctx.app.db, ctx.clock.now())
  const notMine = await invite(stranger, child.id, freshMobile())
  assert.equal(notMine.statusCode, 404)
  assert.equal(errorOf(notMine), FAMILY_MESSAGES.notFound)
  const self = await invite(guardian, child.id, guardian.mobile!)
  assert.equal(self.statusCode, 400)
  assert.equal(errorOf(self), FAMILY_MESSAGES.inviteSelf)
  // An adult member's link is not a child's: no co-guardian for an adult.
  const adult = await signUp(ctx.app.db, ctx.clock.now())
  const adultLink = await ctx.app.db
    .insertInto('family_links')
    .values({
      id: crypto.randomUUID(),
      manager_user_id: guardian.user.id,
      member_user_id: adult.user.id,
      kind: 'adult',
      relation: 'parent',
      created_at: ctx.clock.now().toISOString(),
      ended_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const forAdult = await invite(guardian, adultLink.id, freshMobile())
  assert.equal(forAdult.statusCode, 400)
  assert.equal(errorOf(forAdult), FAMILY_MESSAGES.notGuardian)
})

test('an invitation to a phone without an account waits for it; one the inviter no longer backs is gone', async () => {
  const { guardian, child } = await guardianWithChild('郑小九')
  const mobile = freshMobile()
  assert.equal((await invite(guardian, child.id, mobile)).statusCode, 200)
  // Inviting again renews it, never two.
  assert.equal((await invite(guardian, child.id, mobile)).statusCode, 200)
  const later = await signUp(ctx.app.db, ctx.clock.now(), { mobile })
  const invitations = await invitationsOf(later)
  assert.equal(invitations.length, 1)
  const code = await acceptCode(later, invitations[0]!.id)
  // The inviter ends their own link before the answer: nothing left to join.
  const ended = await http.send('DELETE', `/main/family/members/${child.id}`, guardian.token)
  assert.equal(ended.statusCode, 200, ended.body)
  assert.deepEqual(await invitationsOf(later), [])
  const gone = await accept(later, invitations[0]!.id, code)
  assert.equal(gone.statusCode, 404)
  assert.equal(errorOf(gone), FAMILY_MESSAGES.invitationGone)
})

test('someone else’s invitation is as missing as one that never was', async () => {
  const { guardian, child } = await guardianWithChild('褚小三')
  const parent = await signUp(ctx.app.db, ctx.clock.now())
  assert.equal((await invite(guardian, child.id, parent.mobile!)).statusCode, 200)
  const [invitation] = await invitationsOf(parent)
  const stranger = await signUp(ctx.app.db, ctx.clock.now())
  for (const id of [invitation!.id, crypto.randomUUID()]) {
    for (const [action, body] of [
      ['code', undefined],
      ['accept', { code: '123456' }],
      ['decline', undefined],
    ] as const) {
      const res = await http.send(
        'POST',
        `/main/family/guardian-invitations/${id}/${action}`,
        stranger.token,
        body,
      )
      assert.equal(res.statusCode, 404, `${action} ${res.body}`)
      assert.equal(errorOf(res), FAMILY_MESSAGES.invitationGone)
    }
  }
  // Still there for the parent.
  assert.equal((await invitationsOf(parent)).length, 1)
})

test('declined or expired, an invitation cannot be accepted', async () => {
  const { guardian, child } = await guardianWithChild('王小十')
  const parent = await signUp(ctx.app.db, ctx.clock.now())
  assert.equal((await invite(guardian, child.id, parent.mobile!)).statusCode, 200)
  const [first] = await invitationsOf(parent)
  const declined = await http.send(
    'POST',
    `/main/family/guardian-invitations/${first!.id}/decline`,
    parent.token,
  )
  assert.equal(declined.statusCode, 200, declined.body)
  assert.deepEqual(await invitationsOf(parent), [])
  const code = await http.send(
    'POST',
    `/main/family/guardian-invitations/${first!.id}/code`,
    parent.token,
  )
  assert.equal(code.statusCode, 404)

  assert.equal((await invite(guardian, child.id, parent.mobile!)).statusCode, 200)
  assert.equal((await invitationsOf(parent)).length, 1)
  ctx.clock.advance(GUARDIAN_INVITATION_DAYS * 86_400_000 + 1_000)
  // Signed in again (the session of a week ago has expired).
  const session = await createSession(ctx.app.db, parent.user.id, ctx.clock.now())
  assert.deepEqual(await invitationsOf({ ...parent, token: session.access_token }), [])
})

test(`a guardian sends at most ${GUARDIAN_INVITATIONS_PER_DAY} invitations a day, under a burst`, async () => {
  const { guardian, child } = await guardianWithChild('冯小一')
  const answers = await Promise.all(
    Array.from({ length: GUARDIAN_INVITATIONS_PER_DAY + 6 }, () =>
      invite(guardian, child.id, freshMobile()),
    ),
  )
  assert.equal(answers.filter((res) => res.statusCode === 200).length, GUARDIAN_INVITATIONS_PER_DAY)
  for (const res of answers.filter((r) => r.statusCode !== 200)) {
    assert.equal(res.statusCode, 429)
    assert.match(errorOf(res), /邀请次数过多/)
  }
})

test('accepting twice at once makes one link', async () => {
  const { guardian, child } = await guardianWithChild('陈小二')
  const parent = await signUp(ctx.app.db, ctx.clock.now())
  assert.equal((await invite(guardian, child.id, parent.mobile!)).statusCode, 200)
  const [invitation] = await invitationsOf(parent)
  const code = await acceptCode(parent, invitation!.id)
  const answers = await Promise.all([
    accept(parent, invitation!.id, code),
    accept(parent, invitation!.id, code),
    accept(parent, invitation!.id, code),
  ])
  assert.equal(answers.filter((res) => res.statusCode === 200).length, 1)
  const links = await ctx.app.db
    .selectFrom('family_links')
    .select('id')
    .where('manager_user_id', '=', parent.user.id)
    .where('ended_at', 'is', null)
    .execute()
  assert.equal(links.length, 1)
})
