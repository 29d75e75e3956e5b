import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { isSafeDisplayText, NicknameSchema } from '@contract/text'
import {
  bearer,
  buildProfileApp,
  type ProfileApp,
  signUp,
  validIdNumber,
} from '../../domain/profile/support'

// Issue 6 retest, point 4: text other people see must show what it says.

let ctx: ProfileApp
before(async () => {
  ctx = await buildProfileApp()
})

const UNSAFE = '昵称不能包含控制字符或不可见字符'

test('PUT /sso/user refuses hidden or control characters and the reserved name; nothing is stored', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const cases: [string, string][] = [
    ['\u202Egnp.exe', UNSAFE], // right-to-left override: shows as "exe.png"
    ['a\u200Bb', UNSAFE], // zero-width space
    ['\u0007bell', UNSAFE],
    ['\u001b[31mred', UNSAFE], // ANSI colour escape
    ['\ud800', UNSAFE], // half a character
    ['张\u2066三', UNSAFE], // bidi isolate
    ['小\uFEFF明', UNSAFE], // zero-width no-break space (a BOM at either end is trimmed)
    ['小\n明', UNSAFE],
    ['已注销用户', '该昵称不可用'],
    ['  已注销用户 ', '该昵称不可用'],
  ]
  for (const [nickname, error] of cases) {
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/sso/user',
      headers: bearer(person.token),
      payload: { nickname },
    })
    assert.equal(res.statusCode, 400, JSON.stringify(nickname))
    assert.equal(res.json().error, error, JSON.stringify(nickname))
  }
  const row = await ctx.app.db
    .selectFrom('users')
    .select('nickname')
    .where('id', '=', person.user.id)
    .executeTakeFirstOrThrow()
  assert.ok(isSafeDisplayText(row.nickname ?? ''), 'the stored nickname is unchanged')
  assert.notEqual(row.nickname, '已注销用户')

  // Ordinary names, emoji included (a family emoji is joined by zero-width joiners), still work.
  for (const nickname of ['小明', 'Tom·李', '👨‍👩‍👧 一家', '🏃‍♀️跑者']) {
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/sso/user',
      headers: bearer(person.token),
      payload: { nickname },
    })
    assert.equal(res.statusCode, 200, `${nickname}: ${res.body}`)
    assert.equal(res.json().data.nickname, nickname)
  }
})

test('the appeal reason may span lines but hides nothing either', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const squatter = await signUp(ctx.app.db, ctx.clock.now())
  const idCard = validIdNumber('19700707', 41)
  const bound = await ctx.app.inject({
    method: 'POST',
    url: '/main/account/idcard',
    headers: bearer(squatter.token),
    payload: { realName: '赵六', idCard },
  })
  assert.equal(bound.statusCode, 200, bound.body)
  const appeal = (reason: string, contact = 'zhao@example.com') =>
    ctx.app.inject({
      method: 'POST',
      url: '/main/account/idcard/appeal',
      headers: bearer(person.token),
      payload: { realName: '赵六', idCard, reason, contact },
    })
  const hidden = await appeal('这是我本人的\u202E身份证号码')
  assert.equal(hidden.statusCode, 400)
  assert.equal(hidden.json().error, '申诉说明不能包含控制字符或不可见字符')
  const contact = await appeal('这是我本人的身份证号码', 'zhao\u200B@example.com')
  assert.equal(contact.statusCode, 400)
  assert.equal(contact.json().error, '请填写正确的手机号或邮箱')
  const lines = await appeal('这是我本人的身份证。\n第二行：\t请核实')
  assert.equal(lines.statusCode, 200, lines.body)
})

test('isSafeDisplayText and NicknameSchema (the contract both sides use)', () => {
  assert.equal(isSafeDisplayText('多行\r\n文本\t', { multiline: true }), true)
  assert.equal(isSafeDisplayText('多行\n文本'), false)
  assert.equal(isSafeDisplayText('a\u200D'), false, 'a joiner not between two emoji')
  assert.equal(isSafeDisplayText('\u00AD'), false, 'soft hyphen (Cf)')
  assert.equal(isSafeDisplayText('\uDC00x'), false, 'lone low surrogate')
  assert.equal(isSafeDisplayText('😀'), true, 'a whole surrogate pair')
  assert.equal(NicknameSchema.parse('  小明 '), '小明')
})
