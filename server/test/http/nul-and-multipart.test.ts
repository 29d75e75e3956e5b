import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { NUL_REFUSED } from '../../src/http/validation'
import { UPLOAD_MALFORMED } from '../../src/routes/main/upload'
import { bearer, buildProfileApp, type ProfileApp, signUp } from '../domain/profile/support'

/** Bad bytes answer 400 in Chinese on SQLite and PostgreSQL alike, never 500 (issue 6 section 3). */

let ctx: ProfileApp
let token: string
before(async () => {
  ctx = await buildProfileApp()
  token = (await signUp(ctx.app.db, ctx.clock.now())).token
})

function expectNul(res: { statusCode: number; json(): { error: string | null } }, what: string) {
  assert.equal(res.statusCode, 400, what)
  assert.equal(res.json().error, NUL_REFUSED, what)
}

test('a NUL byte in a JSON body string, nested or in a key, is refused before the database', async () => {
  const nickname = await ctx.app.inject({
    method: 'PUT',
    url: '/sso/user',
    headers: bearer(token),
    payload: { nickname: '小\u0000明' },
  })
  expectNul(nickname, 'body string')
  const row = await ctx.app.db
    .selectFrom('users')
    .select('nickname')
    .where('nickname', 'like', '小%')
    .executeTakeFirst()
  assert.equal(row, undefined, 'nothing was stored')
  const key = await ctx.app.inject({
    method: 'PUT',
    url: '/sso/user',
    headers: bearer(token),
    payload: { ['nick\u0000name']: 'x' },
  })
  expectNul(key, 'body key')
  const track = await ctx.app.inject({
    method: 'POST',
    url: '/main/account/track',
    payload: { event: 'page_view', page: '/pages/a\u0000b' },
  })
  expectNul(track, 'optional string')
})

test('a NUL byte in a query string or a path parameter is refused', async () => {
  expectNul(
    await ctx.app.inject('/main/account/qr/abc%00def?pollSecret=x'),
    'path param read from the database',
  )
  expectNul(
    await ctx.app.inject('/main/account/qr/00000000-0000-0000-0000-000000000000?pollSecret=a%00'),
    'query',
  )
  // A POST route reads no query, yet one with a NUL is still refused (the guard covers every route).
  expectNul(
    await ctx.app.inject({ method: 'POST', url: '/main/account/qr?x=%00', payload: {} }),
    'query of a body route',
  )
  const plain = await ctx.app.inject('/main/account/qr/abc?pollSecret=x')
  assert.equal(plain.statusCode, 404, 'without the NUL the same call is an ordinary 404')
})

test('a malformed multipart body is a 400 with a Chinese text, never a 500', async () => {
  const bodies: [string, string][] = [
    ['multipart/form-data', '--abc\r\n'],
    [
      'multipart/form-data; boundary=abc',
      '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
    ],
  ]
  for (const [type, payload] of bodies) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/main/upload/avatar',
      headers: { ...bearer(token), 'content-type': type },
      payload,
    })
    assert.equal(res.statusCode, 400, `${type}: ${res.body}`)
    assert.equal(res.json().error, UPLOAD_MALFORMED)
  }
})
