import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { before, test } from 'node:test'
import { createFieldCipher } from '../../src/crypto/field-cipher'
import type { DB } from '../../src/db'
import { addChild, listFamily } from '../../src/domain/family/members'
import { createMessage, listMessages } from '../../src/domain/messages'
import { deleteAccount, mergeUser } from '../../src/domain/profile/account'
import { Clock, migratedDb, signUp, smsCode, validIdNumber } from '../domain/profile/support'

/*
 * What hangs on an account in 亲情卡 and 我的消息 when the account is deleted or merged
 * (profile/account.ts eraseAccount and mergeUser, domain/family/members.ts).
 */

const cipher = createFieldCipher(Buffer.alloc(32, 9))
let db: DB
let uploadDir: string
const clock = new Clock()
let sequence = 700

before(async () => {
  db = await migratedDb()
  uploadDir = await mkdtemp(path.join(os.tmpdir(), 'family-account-'))
})

async function link(managerId: string, memberId: string, kind: 'child' | 'adult' = 'adult') {
  const id = randomUUID()
  await db
    .insertInto('family_links')
    .values({
      id,
      manager_user_id: managerId,
      member_user_id: memberId,
      kind,
      relation: kind === 'child' ? 'child' : 'spouse',
      created_at: clock.now().toISOString(),
      ended_at: null,
    })
    .execute()
  return id
}

const message = (userId: string, title: string) =>
  createMessage(db, { userId, kind: 'system', title, body: title, link: null }, clock.now())

async function linksOf(userId: string) {
  return db
    .selectFrom('family_links')
    .selectAll()
    .where((eb) => eb.or([eb('manager_user_id', '=', userId), eb('member_user_id', '=', userId)]))
    .execute()
}

test('deleting a guardian removes their links and messages; a child left alone goes with them', async () => {
  const mum = await signUp(db, clock.now())
  const dad = await signUp(db, clock.now())
  const spouse = await signUp(db, clock.now())
  const alone = await addChild(
    db,
    cipher,
    mum.user.id,
    { name: '吴小一', idNumber: validIdNumber('20200101', (sequence += 1)) },
    clock.now(),
  )
  const shared = await addChild(
    db,
    cipher,
    mum.user.id,
    { name: '吴小二', idNumber: validIdNumber('20210101', (sequence += 1)) },
    clock.now(),
  )
  await link(dad.user.id, shared.personId, 'child')
  await link(mum.user.id, spouse.user.id)
  await link(spouse.user.id, mum.user.id)
  await message(mum.user.id, '给妈妈的消息')

  const code = await smsCode(db, mum.mobile!, 'delete', clock.now())
  await deleteAccount(db, mum.user.id, { code }, { uploadDir }, clock.now())

  assert.deepEqual(await linksOf(mum.user.id), [])
  assert.equal((await listMessages(db, mum.user.id, { page: 1, pageSize: 10 })).total, 0)
  // The child only mum managed: erased (no card left to match records by), the row anonymised.
  const card = await db
    .selectFrom('id_cards')
    .select('id')
    .where('user_id', '=', alone.personId)
    .executeTakeFirst()
  assert.equal(card, undefined)
  const child = await db
    .selectFrom('users')
    .select('deleted_at')
    .where('id', '=', alone.personId)
    .executeTakeFirstOrThrow()
  assert.notEqual(child.deleted_at, null)
  // The child dad also guards stays, with dad.
  const dadFamily = await listFamily(db, cipher, dad.user.id)
  assert.deepEqual(
    dadFamily.members.map((m) => m.personId),
    [shared.personId],
  )
  assert.equal(dadFamily.members[0]!.nameMasked, '吴**')
  // The spouse neither manages nor is managed by the deleted account any more.
  const spouseFamily = await listFamily(db, cipher, spouse.user.id)
  assert.deepEqual([spouseFamily.members.length, spouseFamily.managers.length], [0, 0])
})

test('merging moves links and messages to the surviving account; a link to itself is ended', async () => {
  const phone = await signUp(db, clock.now(), { password: 'abc12345' })
  const wechat = await signUp(db, clock.now(), { mobile: null, wechatOpenid: 'wx-family-merge' })
  const grandma = await signUp(db, clock.now())
  const child = await addChild(
    db,
    cipher,
    phone.user.id,
    { name: '郑小三', idNumber: validIdNumber('20190909', (sequence += 1)) },
    clock.now(),
  )
  await link(grandma.user.id, phone.user.id)
  // Both accounts manage grandma (one person, twice): after the merge, once.
  await link(phone.user.id, grandma.user.id)
  await link(wechat.user.id, grandma.user.id)
  // The WeChat account managed the phone account: the same person after the merge.
  const selfLink = await link(wechat.user.id, phone.user.id)
  await message(phone.user.id, '手机账号的消息')
  // Grants follow the person too: of the phone account's records, received by it, and made by it
  // of grandma's records as her manager (which must end with the link it now hangs on).
  const grant = async (person: string, grantee: string | null, creator: string) => {
    const id = randomUUID()
    const at = clock.now().toISOString()
    await db
      .insertInto('grants')
      .values({
        id,
        person_user_id: person,
        created_by_user_id: creator,
        audience: grantee ? 'account' : 'link',
        grantee_user_id: grantee,
        token_hash: grantee ? null : randomUUID(),
        pickup_hash: null,
        purpose: 'share',
        consultation_id: null,
        max_views: null,
        opens: 0,
        created_at: at,
        expires_at: new Date(clock.now().getTime() + 86_400_000).toISOString(),
        revoked_at: null,
        first_viewed_at: null,
      })
      .execute()
    return id
  }
  const grants = [
    await grant(phone.user.id, null, phone.user.id),
    await grant(grandma.user.id, phone.user.id, grandma.user.id),
    await grant(grandma.user.id, null, phone.user.id),
  ]
  // The phone account had shared with the WeChat account: one person after the merge.
  const toItself = await grant(phone.user.id, wechat.user.id, phone.user.id)

  const code = await smsCode(db, phone.mobile!, 'merge', clock.now())
  await mergeUser(
    db,
    wechat.user.id,
    { mobile: phone.mobile!, code, password: 'abc12345' },
    clock.now(),
  )

  const family = await listFamily(db, cipher, wechat.user.id)
  assert.deepEqual(
    family.members.map((m) => m.personId).sort(),
    [child.personId, grandma.user.id].sort(),
  )
  assert.deepEqual(
    family.managers.map((m) => m.nameMasked === null),
    [true],
  )
  const grandmaFamily = await listFamily(db, cipher, grandma.user.id)
  assert.equal(grandmaFamily.members.length, 1)
  const ended = await db
    .selectFrom('family_links')
    .select('ended_at')
    .where('id', '=', selfLink)
    .executeTakeFirstOrThrow()
  assert.notEqual(ended.ended_at, null)
  const messages = await listMessages(db, wechat.user.id, { page: 1, pageSize: 10 })
  assert.deepEqual(
    messages.items.map((m) => m.title),
    ['手机账号的消息'],
  )
  assert.equal((await linksOf(phone.user.id)).filter((l) => l.ended_at === null).length, 0)
  const moved = await db
    .selectFrom('grants')
    .select(['person_user_id', 'grantee_user_id', 'created_by_user_id'])
    .where('id', 'in', grants)
    .execute()
  assert.ok(!JSON.stringify(moved).includes(phone.user.id), JSON.stringify(moved))
  assert.equal(moved.filter((g) => g.created_by_user_id === wechat.user.id).length, 2)
  const revoked = await db
    .selectFrom('grants')
    .select(['id', 'revoked_at'])
    .where('id', 'in', [...grants, toItself])
    .execute()
  assert.deepEqual(
    revoked.filter((g) => g.revoked_at !== null).map((g) => g.id),
    [toItself],
  )
})
