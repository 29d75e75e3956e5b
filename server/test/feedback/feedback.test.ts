import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { FEEDBACK_MESSAGES } from '@contract/main/feedback'
import { encodeJpeg } from '../../src/dicom/codecs'
import { purgeExpired } from '../../src/domain/retention'
import { json } from '../content/support'
import { buildProfileApp, type ProfileApp, signUp, type TestUser } from '../domain/profile/support'

let ctx: ProfileApp
let alice: TestUser
let bob: TestUser
let jpeg: Buffer

before(async () => {
  ctx = await buildProfileApp({ logLevel: 'silent' })
  alice = await signUp(ctx.app.db, ctx.clock.now())
  bob = await signUp(ctx.app.db, ctx.clock.now())
  const pixels = new Uint8Array(64 * 64 * 3).fill(180)
  const plain = Buffer.from(await encodeJpeg(pixels, 64, 64, 3, 90))
  // An EXIF block with a location that must not survive the re-encoding.
  const body = Buffer.from('Exif\0\0GPS 39.9042N 116.4074E\0', 'latin1')
  const app1 = Buffer.alloc(4)
  app1.writeUInt16BE(0xffe1, 0)
  app1.writeUInt16BE(body.length + 2, 2)
  jpeg = Buffer.concat([plain.subarray(0, 2), app1, body, plain.subarray(2)])
})

function multipart(bytes: Buffer, field = 'file') {
  const boundary = 'yxboundary'
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

async function upload(user: TestUser, bytes = jpeg) {
  const { payload, headers } = multipart(bytes)
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/main/feedback/images',
    payload,
    headers: { ...headers, authorization: `Bearer ${user.token}` },
  })
  return {
    status: res.statusCode,
    body: JSON.parse(res.body) as { data: { id: string; path: string }; error: string },
  }
}

const send = (user: TestUser, payload: object) =>
  json(ctx.app, { method: 'POST', url: '/main/feedback', token: user.token, payload })

test('an image is re-encoded without its metadata and read only by its sender', async () => {
  const up = await upload(alice)
  assert.equal(up.status, 200)
  const mine = await ctx.app.inject({
    url: up.body.data.path,
    headers: { authorization: `Bearer ${alice.token}` },
  })
  assert.equal(mine.statusCode, 200)
  assert.equal(mine.headers['content-type'], 'image/jpeg')
  assert.equal(mine.rawPayload.includes(Buffer.from('GPS 39.9042N', 'latin1')), false)
  const theirs = await ctx.app.inject({
    url: up.body.data.path,
    headers: { authorization: `Bearer ${bob.token}` },
  })
  assert.equal(theirs.statusCode, 404)
  assert.equal((await ctx.app.inject({ url: up.body.data.path })).statusCode, 401)
  // Not public media either.
  assert.equal((await ctx.app.inject({ url: `/media/${up.body.data.id}` })).statusCode, 404)
  const notImage = await upload(alice, Buffer.from('%PDF-1.4 not an image'))
  assert.deepEqual([notImage.status, notImage.body.error], [400, '反馈图片只支持 JPG 或 PNG 格式'])
})

test('feedback with images is listed for its sender with its status; the rules speak Chinese', async () => {
  const a = await upload(alice)
  const b = await upload(alice)
  const sent = await send(alice, {
    type: 'bug',
    text: '  报告页面打不开，一直转圈  ',
    imageIds: [a.body.data.id, b.body.data.id],
    contact: '微信 abc',
  })
  assert.equal(sent.status, 200)
  assert.equal(sent.data.text, '报告页面打不开，一直转圈')
  assert.deepEqual(
    [sent.data.statusLabel, sent.data.typeLabel, sent.data.imagePaths.length],
    ['待处理', '功能异常', 2],
  )
  const list = await json(ctx.app, { url: '/main/feedback', token: alice.token })
  assert.equal(list.data.total, 1)
  assert.equal((await json(ctx.app, { url: '/main/feedback', token: bob.token })).data.total, 0)

  const short = await send(alice, { type: 'bug', text: '打不开', imageIds: [] })
  assert.deepEqual([short.status, short.error], [400, FEEDBACK_MESSAGES.textShort])
  const long = await send(alice, { type: 'bug', text: '长'.repeat(501), imageIds: [] })
  assert.deepEqual([long.status, long.error], [400, FEEDBACK_MESSAGES.textLong])
  const tooMany = await send(alice, {
    type: 'bug',
    text: '图片太多的反馈',
    imageIds: Array.from({ length: 7 }, (_, i) => `i${i}`),
  })
  assert.deepEqual([tooMany.status, tooMany.error], [400, FEEDBACK_MESSAGES.tooManyImages])
  const noType = await send(alice, { type: 'whatever', text: '没有类型的反馈', imageIds: [] })
  assert.deepEqual([noType.status, noType.error], [400, '请选择反馈类型'])
})

test("an image already sent, or someone else's, is refused and nothing is written", async () => {
  const used = (await json(ctx.app, { url: '/main/feedback', token: alice.token })).data.items[0]
  const usedId = used.imagePaths[0].split('/').pop()
  const again = await send(alice, { type: 'other', text: '再用一次这张图', imageIds: [usedId] })
  assert.deepEqual([again.status, again.error], [400, FEEDBACK_MESSAGES.imageNotFound])
  const bobs = await upload(bob)
  const stolen = await send(alice, {
    type: 'other',
    text: '用别人的图片',
    imageIds: [bobs.body.data.id],
  })
  assert.equal(stolen.status, 400)
  assert.equal((await json(ctx.app, { url: '/main/feedback', token: alice.token })).data.total, 1)
  // Two feedbacks racing for one image: one has it.
  const shared = await upload(alice)
  const race = await Promise.all([
    send(alice, { type: 'other', text: '并发的第一条反馈', imageIds: [shared.body.data.id] }),
    send(alice, { type: 'other', text: '并发的第二条反馈', imageIds: [shared.body.data.id] }),
  ])
  assert.deepEqual(race.map((r) => r.status).sort(), [200, 400])
})

test('images never sent are removed after a day, bytes and all; sent ones stay', async () => {
  const stale = await upload(bob)
  ctx.clock.advance(25 * 3600_000)
  const { feedbackImages: removed } = await purgeExpired(ctx.app.db, ctx.clock.now(), ctx.app.store)
  assert.ok(removed! >= 1)
  const row = await ctx.app.db
    .selectFrom('content_files')
    .select('id')
    .where('id', '=', stale.body.data.id)
    .executeTakeFirst()
  assert.equal(row, undefined)
  const kept = await ctx.app.db
    .selectFrom('content_files')
    .select('id')
    .where('kind', '=', 'feedback')
    .where('attached_at', 'is not', null)
    .execute()
  assert.ok(kept.length >= 2)
})
