import assert from 'node:assert/strict'
import { mkdtemp, readdir } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { before, test } from 'node:test'
import { AVATAR_MAX_BYTES, UPLOAD_AVATAR_PATH } from '@contract/main/upload'
import { bearer, buildProfileApp, type ProfileApp, signUp } from '../../domain/profile/support'

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(200, 7),
])
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1)])
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0, 1, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(100, 2),
])

let ctx: ProfileApp
let uploadDir: string
before(async () => {
  uploadDir = await mkdtemp(path.join(os.tmpdir(), 'upload-test-'))
  ctx = await buildProfileApp({ uploadDir })
})

/** A multipart body with one part, as a browser or Taro.uploadFile sends it. */
function multipart(
  content: Buffer,
  { field = 'file', type = 'image/png', name = 'avatar.png' } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----test-boundary-7d1'
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

function upload(token: string | undefined, body: ReturnType<typeof multipart>) {
  return ctx.app.inject({
    method: 'POST',
    url: UPLOAD_AVATAR_PATH,
    payload: body.payload,
    headers: { ...body.headers, ...(token ? bearer(token) : {}) },
  })
}

test('an avatar is stored under a random name, answered as a URL, served read-only', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  for (const [bytes, ext] of [
    [PNG, 'png'],
    [JPEG, 'jpg'],
    [WEBP, 'webp'],
  ] as const) {
    // The claimed type is ignored: the bytes decide.
    const res = await upload(person.token, multipart(bytes, { type: 'application/octet-stream' }))
    assert.equal(res.statusCode, 200, res.body)
    const { url } = res.json().data as { url: string }
    assert.match(url, new RegExp(`^/uploads/avatars/[0-9a-f]{32}\\.${ext}$`))
    const served = await ctx.app.inject(url)
    assert.equal(served.statusCode, 200)
    assert.deepEqual(served.rawPayload, bytes)
    assert.match(served.headers['content-security-policy'] as string, /sandbox/)
    assert.equal((await ctx.app.inject({ method: 'DELETE', url })).statusCode, 404, 'read-only')
  }
  assert.equal((await readdir(path.join(uploadDir, 'avatars'))).length, 3)

  const res = await upload(person.token, multipart(PNG))
  const { url } = res.json().data
  const saved = await ctx.app.inject({
    method: 'PUT',
    url: '/sso/user',
    headers: bearer(person.token),
    payload: { avatarUrl: url },
  })
  assert.equal(saved.json().data.avatarUrl, url, 'the profile may point at it')
})

test('refusals: not an image, too large, wrong field, not multipart, no token', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const html = Buffer.from('<html><script>alert(1)</script></html>')
  const fake = await upload(person.token, multipart(html, { type: 'image/png' }))
  assert.equal(fake.statusCode, 400)
  assert.equal(fake.json().error, '头像只支持 JPG、PNG 或 WebP 图片')

  const big = Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES)])
  const tooLarge = await upload(person.token, multipart(big))
  assert.equal(tooLarge.statusCode, 413)
  assert.equal(tooLarge.json().error, '头像图片不能超过 2 MB，请裁剪或压缩后重试')

  const field = await upload(person.token, multipart(PNG, { field: 'avatar' }))
  assert.equal(field.statusCode, 400)
  assert.match(field.json().error, /文件字段名为 file/)

  const json = await ctx.app.inject({
    method: 'POST',
    url: UPLOAD_AVATAR_PATH,
    headers: bearer(person.token),
    payload: { file: 'x' },
  })
  assert.equal(json.statusCode, 400)
  assert.match(json.json().error, /multipart\/form-data/)

  assert.equal((await upload(undefined, multipart(PNG))).statusCode, 401)
  assert.equal((await upload('forged', multipart(PNG))).statusCode, 401)
})

/** A multipart body of several parts: [field name, file name or undefined for a plain field, bytes]. */
function multipartOf(parts: [string, string | undefined, Buffer][]) {
  const boundary = '----test-boundary-9f2'
  const chunks: Buffer[] = []
  for (const [field, name, content] of parts) {
    const disposition = name
      ? `form-data; name="${field}"; filename="${name}"\r\nContent-Type: image/png`
      : `form-data; name="${field}"`
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`))
    chunks.push(content, Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

test('a second file or an extra field is refused, not silently dropped (issue 6 retest)', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  const before = (await readdir(path.join(uploadDir, 'avatars')).catch(() => [])).length
  const cases: [[string, string | undefined, Buffer][], string][] = [
    [
      [
        ['file', 'a.png', PNG],
        ['file', 'b.png', PNG],
      ],
      '只能上传一个文件',
    ],
    [
      [
        ['file', 'a.png', PNG],
        ['other', 'b.png', JPEG],
      ],
      '只能上传一个文件',
    ],
    [
      [
        ['file', 'a.png', PNG],
        ['note', undefined, Buffer.from('hi')],
      ],
      '上传时不要附带其他字段',
    ],
    [
      [
        ['note', undefined, Buffer.from('hi')],
        ['file', 'a.png', PNG],
      ],
      '上传时不要附带其他字段',
    ],
  ]
  for (const [parts, error] of cases) {
    const res = await upload(person.token, multipartOf(parts))
    const label = parts.map(([field, name]) => `${field}:${name ?? 'field'}`).join(',')
    assert.equal(res.statusCode, 400, `${label}: ${res.body}`)
    assert.equal(res.json().error, error, label)
  }
  const after = (await readdir(path.join(uploadDir, 'avatars')).catch(() => [])).length
  assert.equal(after, before, 'nothing was stored')
  // One file alone still works.
  const one = await upload(person.token, multipartOf([['file', 'a.png', PNG]]))
  assert.equal(one.statusCode, 200, one.body)
})

test('uploads are rate-limited per person', async () => {
  const person = await signUp(ctx.app.db, ctx.clock.now())
  for (let i = 0; i < 20; i += 1)
    assert.equal((await upload(person.token, multipart(PNG))).statusCode, 200)
  const limited = await upload(person.token, multipart(PNG))
  assert.equal(limited.statusCode, 429)
  assert.match(limited.json().error, /^上传过于频繁/)
})

test('an unknown file under /uploads is the JSON 404, never the H5 app', async () => {
  const res = await ctx.app.inject({
    url: '/uploads/avatars/nothing.png',
    headers: { accept: 'text/html' },
  })
  assert.equal(res.statusCode, 404)
  assert.equal(res.json().code, 404)
  const traversal = await ctx.app.inject('/uploads/..%2F..%2Fpackage.json')
  assert.equal(traversal.statusCode, 404)
})
