import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, test } from 'node:test'
import { REASONS } from '@contract/reasons'
import { envelope } from '@contract/envelope'
import {
  addFamilyChild,
  FAMILY_MEMBERS_MAX,
  FAMILY_MESSAGES,
  listFamily,
} from '@contract/main/family'
import { ageOn } from '../../src/domain/family/members'
import { createSession } from '../../src/domain/identity'
import { FLOW_ONLY } from '../../src/domain/identity/sms'
import { ID_CARD_TAKEN } from '../../src/domain/profile/id-cards'
import { readOutbox } from '../../src/providers/sms'
import {
  buildProfileApp,
  freshMobile,
  type ProfileApp,
  signUp,
  type TestUser,
  validIdNumber,
} from '../domain/profile/support'
import { client, PASSWORD, patientWithCard } from '../records/patient-support'

/*
 * 亲情卡 members (contract/main/family.ts): who can be added and how, on the server clock (the app
 * starts at 2030-06-01 08:00 UTC, 16:00 in China).
 */

let ctx: ProfileApp
let http: ReturnType<typeof client>
const errorOf = (res: { body: string }) => (JSON.parse(res.body) as { error: string }).error
let sequence = 500
const childId = (birth: string) => validIdNumber(birth, (sequence += 1))

before(async () => {
  ctx = await buildProfileApp({ logLevel: 'silent' })
  http = client(ctx.app)
})

const addChild = (token: string, name: string, idNumber: string, confirmed: unknown = true) =>
  http.send('POST', '/main/family/children', token, {
    name,
    idNumber,
    guardianConfirmed: confirmed,
  })

test('age is counted in whole years on the day in China', () => {
  // 2030-06-01T15:59Z is 23:59 on June 1 in China; 16:00Z is already June 2.
  const id = validIdNumber('20160602', 1)
  assert.equal(ageOn(id, new Date('2030-06-01T15:59:00Z')), 13)
  assert.equal(ageOn(id, new Date('2030-06-01T16:00:00Z')), 14)
  assert.equal(ageOn(validIdNumber('20200229', 1), new Date('2030-02-28T00:00:00Z')), 9)
})

test('a child is added only under 14, with a valid number and the guardian’s statement', async () => {
  const guardian = await signUp(ctx.app.db, ctx.clock.now())
  // 14 on 2030-06-01 in China (the clock's day): an adult, who must agree by SMS.
  const fourteen = await addChild(guardian.token, '王小一', childId('20160601'))
  assert.equal(fourteen.statusCode, 400)
  assert.equal(errorOf(fourteen), FAMILY_MESSAGES.notChild)
  const bad = validIdNumber('20200101', 9)
  const typo = await addChild(
    guardian.token,
    '王小二',
    `${bad.slice(0, 17)}${bad[17] === '1' ? '2' : '1'}`,
  )
  assert.equal(typo.statusCode, 400)
  assert.equal(errorOf(typo), '身份证号校验位不正确，请核对')
  const unconfirmed = await addChild(guardian.token, '王小三', childId('20200101'), false)
  assert.equal(unconfirmed.statusCode, 400)
  assert.equal(errorOf(unconfirmed), FAMILY_MESSAGES.guardianConfirm)

  const id = childId('20160602') // 14 tomorrow in China
  const ok = await addChild(guardian.token, '王小四', id)
  assert.equal(ok.statusCode, 200, ok.body)
  const member = envelope(addFamilyChild.output).parse(ok.json()).data!
  assert.equal(member.kind, 'child')
  assert.equal(member.relationLabel, '子女')
  assert.equal(member.mobileMasked, null)
  const twice = await addChild(guardian.token, '王小四', id)
  assert.equal(twice.statusCode, 400)
  assert.equal(errorOf(twice), FAMILY_MESSAGES.already)

  // The child is a person who cannot sign in.
  const person = await ctx.app.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', member.personId)
    .executeTakeFirstOrThrow()
  assert.equal(person.mobile, null)
  assert.equal(person.password_hash, null)
  assert.equal(person.wechat_openid, null)

  const listed = envelope(listFamily.output).parse(
    (await http.get('/main/family', guardian.token)).json(),
  ).data!
  assert.equal(listed.self.personId, guardian.user.id)
  assert.deepEqual(
    listed.members.map((m) => m.personId),
    [member.personId],
  )

  // Turning 14 does not end the link: the guardian is the child's guardian until 18 (Civil Code art.
  // 27); only a new link for someone 14 or older needs their own code (README, 亲情卡).
  ctx.clock.advance(2 * 86_400_000)
  const later = await createSession(ctx.app.db, guardian.user.id, ctx.clock.now())
  const afterBirthday = envelope(listFamily.output).parse(
    (await http.get('/main/family', later.access_token)).json(),
  ).data!
  assert.deepEqual(
    afterBirthday.members.map((m) => m.personId),
    [member.personId],
  )
  const images = await http.get(`/main/images?personId=${member.personId}`, later.access_token)
  assert.equal(images.statusCode, 200, images.body)
})

test('a number bound to an account, or the same number under another name, is refused', async () => {
  const adult = await patientWithCard(ctx, '赵大人')
  const guardian = await signUp(ctx.app.db, ctx.clock.now())
  // An ID number of a (young) account holder: theirs, not a child to add.
  await ctx.app.db
    .updateTable('id_cards')
    .set({ number_hash: ctx.app.personalCipher.digest(validIdNumber('20200505', 42)) })
    .where('user_id', '=', adult.user.id)
    .execute()
  const taken = await addChild(guardian.token, '赵大人', validIdNumber('20200505', 42))
  assert.equal(taken.statusCode, 400)
  assert.equal(errorOf(taken), ID_CARD_TAKEN)
  assert.equal(taken.json().reason, REASONS.idCardTaken)

  const id = childId('20210101')
  assert.equal((await addChild(guardian.token, '钱小宝', id)).statusCode, 200)
  const other = await signUp(ctx.app.db, ctx.clock.now())
  const wrongName = await addChild(other.token, '钱大宝', id)
  assert.equal(wrongName.statusCode, 400)
  assert.equal(errorOf(wrongName), ID_CARD_TAKEN)
  const self = await patientWithCard(ctx, '孙自己')
  const own = await addChild(self.token, '孙自己', self.idNumber)
  assert.equal(own.statusCode, 400) // an adult's own number: over 14 first
})

test(`at most ${FAMILY_MEMBERS_MAX} members, held under a burst`, async () => {
  const guardian = await signUp(ctx.app.db, ctx.clock.now())
  // Half the card filled beforehand (adults, inserted), so the burst of child adds stays inside the
  // daily ID-number attempt limit (ID_CARD_BINDS_PER_DAY) and only the member cap can refuse.
  const before = FAMILY_MEMBERS_MAX / 2
  for (let i = 0; i < before; i += 1) {
    const adult = await signUp(ctx.app.db, ctx.clock.now())
    await ctx.app.db
      .insertInto('family_links')
      .values({
        id: randomUUID(),
        manager_user_id: guardian.user.id,
        member_user_id: adult.user.id,
        kind: 'adult',
        relation: 'other',
        created_at: ctx.clock.now().toISOString(),
        ended_at: null,
      })
      .execute()
  }
  const names = ['甲', '乙', '丙', '丁', '戊', '己', '庚', '辛', '壬', '癸']
  const answers = await Promise.all(
    names.map((n) => addChild(guardian.token, `周${n}儿`, childId('20220303'))),
  )
  const okCount = answers.filter((res) => res.statusCode === 200).length
  assert.equal(okCount, FAMILY_MEMBERS_MAX - before, answers.map((r) => r.body).join('\n'))
  for (const res of answers.filter((r) => r.statusCode !== 200)) {
    assert.equal(res.statusCode, 400, res.body)
    assert.equal(errorOf(res), FAMILY_MESSAGES.tooMany)
  }
  const count = await ctx.app.db
    .selectFrom('family_links')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('manager_user_id', '=', guardian.user.id)
    .where('ended_at', 'is', null)
    .executeTakeFirstOrThrow()
  assert.equal(Number(count.n), FAMILY_MEMBERS_MAX)
})

async function familyCode(manager: TestUser, mobile: string): Promise<string> {
  ctx.clock.advance(61_000)
  const sent = await http.send('POST', '/main/family/adults/code', manager.token, { mobile })
  assert.equal(sent.statusCode, 200, sent.body)
  return (await readOutbox(ctx.app.db, mobile, { purposes: ['family'] })).at(-1)!.code
}

test('two accounts on one network ask the same adult: each one’s code is its own', async () => {
  // Two parents at home (one network) each add grandma: the second ask must not replace the first's
  // code (it was looked up by phone and purpose only, so the first parent's right code was wrong).
  const mother = await signUp(ctx.app.db, ctx.clock.now())
  const father = await signUp(ctx.app.db, ctx.clock.now())
  const mobile = freshMobile()
  const mothersCode = await familyCode(mother, mobile)
  const fathersCode = await familyCode(father, mobile)
  for (const [manager, code] of [
    [mother, mothersCode],
    [father, fathersCode],
  ] as const) {
    const added = await http.send('POST', '/main/family/adults', manager.token, {
      mobile,
      code,
      relation: 'parent',
    })
    assert.equal(added.statusCode, 200, added.body)
  }
})

test('an adult agrees by a code to their phone; an unregistered phone gets an account', async () => {
  const manager = await signUp(ctx.app.db, ctx.clock.now())
  const mobile = freshMobile()
  const code = await familyCode(manager, mobile)
  // The code agrees to the account that asked for it: another account that learns it finds no code
  // of its own, and cannot use up the asker's tries.
  const other = await signUp(ctx.app.db, ctx.clock.now())
  const borrowed = await http.send('POST', '/main/family/adults', other.token, {
    mobile,
    code,
    relation: 'parent',
  })
  assert.equal(borrowed.statusCode, 400, borrowed.body)
  assert.equal(errorOf(borrowed), '请先获取验证码')
  const wrong = await http.send('POST', '/main/family/adults', manager.token, {
    mobile,
    code: code === '000000' ? '111111' : '000000',
    relation: 'parent',
  })
  assert.equal(wrong.statusCode, 400)
  const added = await http.send('POST', '/main/family/adults', manager.token, {
    mobile,
    code,
    relation: 'parent',
  })
  assert.equal(added.statusCode, 200, added.body)
  const member = await ctx.app.db
    .selectFrom('users')
    .selectAll()
    .where('mobile', '=', mobile)
    .executeTakeFirstOrThrow()
  const data = envelope(addFamilyChild.output).parse(added.json()).data!
  assert.equal(data.personId, member.id)
  assert.equal(data.kind, 'adult')
  assert.equal(data.mobileMasked, `${mobile.slice(0, 3)}****${mobile.slice(-4)}`)
  // The code is used up.
  const again = await http.send('POST', '/main/family/adults', manager.token, {
    mobile,
    code,
    relation: 'parent',
  })
  assert.equal(again.statusCode, 400)
})

test('adding oneself is refused before any code is sent; the public SMS route cannot send a family code', async () => {
  const me = await signUp(ctx.app.db, ctx.clock.now(), { password: PASSWORD })
  const self = await http.send('POST', '/main/family/adults/code', me.token, { mobile: me.mobile })
  assert.equal(self.statusCode, 400)
  assert.equal(errorOf(self), FAMILY_MESSAGES.self)
  assert.equal((await readOutbox(ctx.app.db, me.mobile!, { purposes: ['family'] })).length, 0)
  const open = await http.send('POST', '/sso/sms/send', undefined, {
    mobile: freshMobile(),
    purpose: 'family',
  })
  assert.equal(open.statusCode, 400)
  assert.equal(errorOf(open), FLOW_ONLY)
})

test('a child someone guards is not joined; once unguarded, a burst of accounts adding it gets one guardian', async () => {
  const first = await signUp(ctx.app.db, ctx.clock.now())
  const id = childId('20210404')
  const added = await addChild(first.token, '钱小五', id)
  assert.equal(added.statusCode, 200, added.body)
  const other = await signUp(ctx.app.db, ctx.clock.now())
  const refused = await addChild(other.token, '钱小五', id)
  assert.equal(refused.statusCode, 400)
  assert.equal(errorOf(refused), FAMILY_MESSAGES.childGuarded)

  const link = envelope(addFamilyChild.output).parse(added.json()).data!
  const removed = await http.send('DELETE', `/main/family/members/${link.id}`, first.token)
  assert.equal(removed.statusCode, 200, removed.body)
  // Six accounts at once: the child's row is locked while each checks, so exactly one wins.
  const accounts = await Promise.all(
    Array.from({ length: 6 }, () => signUp(ctx.app.db, ctx.clock.now())),
  )
  const answers = await Promise.all(accounts.map((a) => addChild(a.token, '钱小五', id)))
  assert.equal(
    answers.filter((r) => r.statusCode === 200).length,
    1,
    answers.map((r) => r.body).join('\n'),
  )
  for (const res of answers.filter((r) => r.statusCode !== 200)) {
    assert.equal(errorOf(res), FAMILY_MESSAGES.childGuarded)
  }
  const guardians = await ctx.app.db
    .selectFrom('family_links')
    .select('manager_user_id')
    .where('member_user_id', '=', link.personId)
    .where('ended_at', 'is', null)
    .execute()
  assert.equal(guardians.length, 1)
})

test('only the manager removes, only the member leaves; others get 404', async () => {
  const manager = await signUp(ctx.app.db, ctx.clock.now())
  const other = await signUp(ctx.app.db, ctx.clock.now())
  const memberMobile = freshMobile()
  const code = await familyCode(manager, memberMobile)
  const added = await http.send('POST', '/main/family/adults', manager.token, {
    mobile: memberMobile,
    code,
    relation: 'sibling',
  })
  const linkId = envelope(addFamilyChild.output).parse(added.json()).data!.id
  // The member cannot "remove" (a manager's action), a stranger can do neither.
  assert.equal(
    (await http.send('DELETE', `/main/family/members/${linkId}`, other.token)).statusCode,
    404,
  )
  assert.equal(
    (await http.send('DELETE', `/main/family/managers/${linkId}`, other.token)).statusCode,
    404,
  )
  assert.equal(
    (await http.send('DELETE', `/main/family/managers/${linkId}`, manager.token)).statusCode,
    404,
  )
  const removed = await http.send('DELETE', `/main/family/members/${linkId}`, manager.token)
  assert.equal(removed.statusCode, 200, removed.body)
  const listed = envelope(listFamily.output).parse(
    (await http.get('/main/family', manager.token)).json(),
  ).data!
  assert.equal(listed.members.length, 0)
})
