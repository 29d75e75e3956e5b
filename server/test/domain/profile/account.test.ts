import assert from 'node:assert/strict'
import { mkdtemp, readdir } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { before, test } from 'node:test'
import { REASONS } from '@contract/reasons'
import { createFieldCipher } from '../../../src/crypto/field-cipher'
import type { DB } from '../../../src/db'
import {
  findSessionByAccessToken,
  findUserByMobile,
  loadProfile,
} from '../../../src/domain/identity'
import {
  bindPhone,
  deleteAccount,
  DELETED_NICKNAME,
  MERGE_ID_CARD_CONFLICT,
  mergeUser,
  MOBILE_IN_USE,
  modifyUser,
  NO_MOBILE_FOR_DELETE,
} from '../../../src/domain/profile/account'
import { AVATAR_URL_REFUSED, saveAvatar } from '../../../src/domain/profile/avatars'
import { bindIdCard, listBoundCards } from '../../../src/domain/profile/id-cards'
import { getNoticeSettings, saveNoticeSettings } from '../../../src/domain/profile/notice-settings'
import { addTrack } from '../../../src/domain/profile/tracks'
import { ApiError } from '../../../src/http/errors'
import { Clock, freshIp, freshMobile, migratedDb, signUp, smsCode, validIdNumber } from './support'

const cipher = createFieldCipher(Buffer.alloc(32, 5))
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
])

let db: DB
let uploadDir: string
const clock = new Clock()
before(async () => {
  db = await migratedDb()
  uploadDir = await mkdtemp(path.join(os.tmpdir(), 'profile-test-'))
})

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error))
    return error
  }
  assert.fail('expected a refusal')
}

test('modifyUser changes nickname and gender; an avatar must be one of the person’s uploads', async () => {
  const { user } = await signUp(db, clock.now())
  const profile = await modifyUser(db, user.id, { nickname: '小明', gender: 'male' }, clock.now())
  assert.equal(profile.nickname, '小明')
  const refused = await refusal(
    modifyUser(db, user.id, { avatarUrl: 'https://tracker.example/pixel.png' }, clock.now()),
  )
  assert.equal(refused.userMessage, AVATAR_URL_REFUSED)
  const { url } = await saveAvatar(db, uploadDir, { userId: user.id, bytes: PNG }, clock.now())
  assert.equal((await modifyUser(db, user.id, { avatarUrl: url }, clock.now())).avatarUrl, url)
  const other = await signUp(db, clock.now())
  assert.equal(
    (await refusal(modifyUser(db, other.user.id, { avatarUrl: url }, clock.now()))).userMessage,
    AVATAR_URL_REFUSED,
    'someone else’s upload is not yours to show',
  )
  assert.equal((await modifyUser(db, user.id, { avatarUrl: null }, clock.now())).avatarUrl, null)
})

test('bindPhone: the code goes to the new number; a number in use is refused', async () => {
  const { user } = await signUp(db, clock.now(), { password: 'abc12345' })
  const next = freshMobile()
  const wrong = await refusal(
    bindPhone(db, user.id, { mobile: next, code: '000000', password: 'abc12345' }, clock.now()),
  )
  assert.equal(wrong.userMessage, '请先获取验证码')
  const code = await smsCode(db, next, 'bind', clock.now())
  const profile = await bindPhone(
    db,
    user.id,
    { mobile: next, code, password: 'abc12345' },
    clock.now(),
  )
  assert.equal(profile.mobileMasked, `${next.slice(0, 3)}****${next.slice(7)}`)

  const other = await signUp(db, clock.now())
  const taken = await refusal(
    bindPhone(
      db,
      other.user.id,
      {
        mobile: next,
        code: await smsCode(db, next, 'bind', clock.now()),
        oldCode: await smsCode(db, other.mobile!, 'verify-old', clock.now()),
      },
      clock.now(),
    ),
  )
  assert.equal(taken.userMessage, MOBILE_IN_USE)
  assert.equal(taken.reason, REASONS.mobileInUse)
})

test('deleteAccount removes or anonymises everything personal, in one go', async () => {
  const person = await signUp(db, clock.now(), { password: 'abc12345', wechatOpenid: 'wx-del-1' })
  const mobile = person.mobile!
  const id = person.user.id
  await bindIdCard(
    db,
    cipher,
    id,
    { realName: '赵六', idCard: validIdNumber('19800808', 401) },
    clock.now(),
  )
  await saveNoticeSettings(db, id, { reportReady: false }, clock.now())
  await addTrack(
    db,
    { event: 'page_view', page: 'pages/user/user', userId: id, ip: freshIp() },
    clock.now(),
  )
  const { url } = await saveAvatar(db, uploadDir, { userId: id, bytes: PNG }, clock.now())
  await modifyUser(db, id, { avatarUrl: url, nickname: '赵六六' }, clock.now())
  assert.equal((await readdir(path.join(uploadDir, 'avatars'))).includes(path.basename(url)), true)

  const wrong = await refusal(deleteAccount(db, id, { code: '000000' }, { uploadDir }, clock.now()))
  assert.equal(wrong.statusCode, 400)
  assert.ok(await findUserByMobile(db, mobile), 'nothing happened without the right code')

  const code = await smsCode(db, mobile, 'delete', clock.now())
  await deleteAccount(db, id, { code }, { uploadDir }, clock.now())

  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  assert.equal(row.nickname, DELETED_NICKNAME)
  assert.equal(row.mobile, null)
  assert.equal(row.password_hash, null)
  assert.equal(row.wechat_openid, null)
  assert.equal(row.avatar_url, null)
  assert.ok(row.deleted_at)
  for (const table of ['id_cards', 'notice_settings', 'tracks', 'files'] as const) {
    const left = await db.selectFrom(table).selectAll().where('user_id', '=', id).execute()
    assert.deepEqual(left, [], `${table} is empty for the person`)
  }
  for (const table of ['sms_codes', 'sms_outbox', 'code_tickets', 'login_failures'] as const) {
    const left = await db.selectFrom(table).selectAll().where('mobile', '=', mobile).execute()
    assert.deepEqual(left, [], `${table} holds nothing of the phone`)
  }
  const live = await db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', id)
    .where('revoked_at', 'is', null)
    .execute()
  assert.deepEqual(live, [], 'every session revoked')
  assert.equal(await findSessionByAccessToken(db, person.token, clock.now()), undefined)
  assert.equal(
    (await readdir(path.join(uploadDir, 'avatars'))).includes(path.basename(url)),
    false,
    'the avatar file is gone',
  )
  // The phone and the WeChat account may start afresh.
  const again = await signUp(db, clock.now(), { mobile, wechatOpenid: 'wx-del-1' })
  assert.notEqual(again.user.id, id)
  assert.deepEqual(await getNoticeSettings(db, again.user.id), {
    consultReply: true,
    reportReady: true,
    systemNotice: true,
  })
})

test('an account without a phone cannot confirm deletion by SMS and is told so', async () => {
  const wechat = await signUp(db, clock.now(), { mobile: null, wechatOpenid: 'wx-del-2' })
  const error = await refusal(
    deleteAccount(db, wechat.user.id, { code: '123456' }, { uploadDir }, clock.now()),
  )
  assert.equal(error.userMessage, NO_MOBILE_FOR_DELETE)
})

test('mergeUser: the phone account’s data moves to the WeChat account, both histories kept', async () => {
  const phone = await signUp(db, clock.now(), { password: 'abc12345' })
  const wechat = await signUp(db, clock.now(), { mobile: null, wechatOpenid: 'wx-merge-1' })
  const number = validIdNumber('19750505', 501)
  await bindIdCard(db, cipher, phone.user.id, { realName: '钱七', idCard: number }, clock.now())
  await saveNoticeSettings(db, phone.user.id, { systemNotice: false }, clock.now())
  await addTrack(db, { event: 'page_view', userId: phone.user.id, ip: freshIp() }, clock.now())
  await addTrack(db, { event: 'tap_entry', userId: wechat.user.id, ip: freshIp() }, clock.now())

  const wrong = await refusal(
    mergeUser(db, wechat.user.id, { mobile: phone.mobile!, code: '000000' }, clock.now()),
  )
  assert.equal(wrong.statusCode, 400)

  const code = await smsCode(db, phone.mobile!, 'merge', clock.now())
  const keep = (await findSessionByAccessToken(db, wechat.token, clock.now()))!.sessionId
  const profile = await mergeUser(
    db,
    wechat.user.id,
    { mobile: phone.mobile!, code, password: 'abc12345' },
    clock.now(),
    { keepSessionId: keep },
  )
  assert.equal(profile.id, wechat.user.id)
  assert.equal(profile.wechatBound, true)
  assert.equal(profile.hasPassword, true, 'the phone’s password keeps working')
  assert.equal(profile.idCardStatus, 'bound')
  assert.equal(profile.mobileMasked?.slice(-4), phone.mobile!.slice(-4))

  assert.equal((await listBoundCards(db, cipher, wechat.user.id)).length, 1)
  assert.deepEqual(await getNoticeSettings(db, wechat.user.id), {
    consultReply: true,
    reportReady: true,
    systemNotice: false,
  })
  const tracks = await db
    .selectFrom('tracks')
    .select('event')
    .where('user_id', '=', wechat.user.id)
    .execute()
  assert.deepEqual(tracks.map((t) => t.event).sort(), ['page_view', 'tap_entry'])

  const merged = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', phone.user.id)
    .executeTakeFirstOrThrow()
  assert.ok(merged.deleted_at)
  assert.equal(merged.mobile, null)
  assert.equal(await findSessionByAccessToken(db, phone.token, clock.now()), undefined)
  assert.ok(
    await findSessionByAccessToken(db, wechat.token, clock.now()),
    'the caller stays signed in',
  )
  const link = await db.selectFrom('user_merges').selectAll().executeTakeFirstOrThrow()
  assert.equal(link.from_user_id, phone.user.id)
  assert.equal(link.into_user_id, wechat.user.id)
  assert.equal((await findUserByMobile(db, phone.mobile!))?.id, wechat.user.id)
  assert.equal(
    (await loadProfile(db, (await findUserByMobile(db, phone.mobile!))!)).id,
    wechat.user.id,
  )
})

test('mergeUser refuses two accounts with different ID cards, and keeps both untouched', async () => {
  const phone = await signUp(db, clock.now())
  const wechat = await signUp(db, clock.now(), { mobile: null, wechatOpenid: 'wx-merge-2' })
  await bindIdCard(
    db,
    cipher,
    phone.user.id,
    { realName: '孙八', idCard: validIdNumber('19700101', 601) },
    clock.now(),
  )
  await bindIdCard(
    db,
    cipher,
    wechat.user.id,
    { realName: '周九', idCard: validIdNumber('19700101', 602) },
    clock.now(),
  )
  const code = await smsCode(db, phone.mobile!, 'merge', clock.now())
  const error = await refusal(
    mergeUser(db, wechat.user.id, { mobile: phone.mobile!, code }, clock.now()),
  )
  assert.equal(error.userMessage, MERGE_ID_CARD_CONFLICT)
  assert.equal((await findUserByMobile(db, phone.mobile!))?.id, phone.user.id)
  assert.ok(await findSessionByAccessToken(db, phone.token, clock.now()))
})

test('mergeUser: an unregistered phone, or a caller that already has a phone, is refused', async () => {
  const wechat = await signUp(db, clock.now(), { mobile: null, wechatOpenid: 'wx-merge-3' })
  const nobody = freshMobile()
  const code = await smsCode(db, nobody, 'merge', clock.now())
  const unknown = await refusal(
    mergeUser(db, wechat.user.id, { mobile: nobody, code }, clock.now()),
  )
  assert.match(unknown.userMessage, /没有注册账号/)
  const withPhone = await signUp(db, clock.now())
  const other = await signUp(db, clock.now())
  const refused = await refusal(
    mergeUser(db, withPhone.user.id, { mobile: other.mobile!, code: '123456' }, clock.now()),
  )
  assert.match(refused.userMessage, /已绑定其他手机号/)
})
