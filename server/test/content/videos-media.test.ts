import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { type ProfileApp, signUp, type TestUser } from '../domain/profile/support'
import { contentApp, json } from './support'

let ctx: ProfileApp
let alice: TestUser
let video: { id: string; durationSeconds: number; posterPath: string }

before(async () => {
  ctx = await contentApp()
  alice = await signUp(ctx.app.db, ctx.clock.now())
  const list = await json(ctx.app, { url: '/main/videos?category=talk' })
  video = list.data.items[0]
})

test('each category lists its published videos; an unknown category is a 400', async () => {
  const counts = await Promise.all(
    ['talk', 'firstAid', 'diet'].map(
      async (category) =>
        (await json(ctx.app, { url: `/main/videos?category=${category}` })).data.total,
    ),
  )
  assert.deepEqual(counts, [2, 2, 1])
  const bad = await json(ctx.app, { url: '/main/videos?category=movies' })
  assert.equal(bad.status, 400)
})

test('a signed-in viewer comes back to where they stopped; near the end starts over', async () => {
  const detail = await json(ctx.app, { url: `/main/videos/${video.id}`, token: alice.token })
  assert.equal(detail.data.resumeAt, 0)
  assert.equal(detail.data.mimeType, 'video/mp4')
  const save = (seconds: number) =>
    json(ctx.app, {
      method: 'PUT',
      url: `/main/videos/${video.id}/position`,
      token: alice.token,
      payload: { seconds },
    })
  assert.equal((await save(2.7)).status, 200)
  assert.equal(
    (await json(ctx.app, { url: `/main/videos/${video.id}`, token: alice.token })).data.resumeAt,
    2,
  )
  // Anyone else starts from the beginning.
  assert.equal((await json(ctx.app, { url: `/main/videos/${video.id}` })).data.resumeAt, 0)
  // A 6-second clip stopped at second 3 resumes there; at its end it starts over.
  await save(3)
  assert.equal(
    (await json(ctx.app, { url: `/main/videos/${video.id}`, token: alice.token })).data.resumeAt,
    3,
  )
  await save(video.durationSeconds)
  assert.equal(
    (await json(ctx.app, { url: `/main/videos/${video.id}`, token: alice.token })).data.resumeAt,
    0,
  )
  const negative = await save(-1)
  assert.deepEqual([negative.status, negative.error], [400, '播放位置不能为负'])
  assert.equal(
    (
      await json(ctx.app, {
        method: 'PUT',
        url: `/main/videos/${video.id}/position`,
        payload: { seconds: 1 },
      })
    ).status,
    401,
  )
})

test('/media serves the video whole and in byte ranges, cached for good', async () => {
  const detail = await json(ctx.app, { url: `/main/videos/${video.id}` })
  const whole = await ctx.app.inject({ url: detail.data.videoPath })
  assert.equal(whole.statusCode, 200)
  assert.equal(whole.headers['content-type'], 'video/mp4')
  assert.equal(whole.headers['accept-ranges'], 'bytes')
  assert.match(String(whole.headers['cache-control']), /immutable/)
  const size = whole.rawPayload.length
  assert.ok(size > 1000)
  assert.equal(whole.rawPayload.subarray(4, 8).toString('latin1'), 'ftyp')
  const part = await ctx.app.inject({
    url: detail.data.videoPath,
    headers: { range: 'bytes=100-199' },
  })
  assert.equal(part.statusCode, 206)
  assert.equal(part.headers['content-range'], `bytes 100-199/${size}`)
  assert.equal(part.rawPayload.length, 100)
  assert.deepEqual(part.rawPayload, whole.rawPayload.subarray(100, 200))
  const tail = await ctx.app.inject({ url: detail.data.videoPath, headers: { range: 'bytes=-10' } })
  assert.deepEqual(tail.rawPayload, whole.rawPayload.subarray(size - 10))
  const open = await ctx.app.inject({
    url: detail.data.videoPath,
    headers: { range: `bytes=${size - 5}-` },
  })
  assert.equal(open.rawPayload.length, 5)
  const beyond = await ctx.app.inject({
    url: detail.data.videoPath,
    headers: { range: `bytes=${size}-` },
  })
  assert.equal(beyond.statusCode, 416)
  assert.equal(beyond.headers['content-range'], `bytes */${size}`)
  // Several ranges or nonsense: ignored, the whole file (HTTP allows it).
  const many = await ctx.app.inject({
    url: detail.data.videoPath,
    headers: { range: 'bytes=0-1,5-6' },
  })
  assert.equal(many.statusCode, 200)
  const cached = await ctx.app.inject({
    url: detail.data.videoPath,
    headers: { 'if-none-match': String(whole.headers.etag) },
  })
  assert.equal(cached.statusCode, 304)
  const poster = await ctx.app.inject({ url: video.posterPath })
  assert.equal(poster.headers['content-type'], 'image/jpeg')
})

test('/media serves nothing that is not public: unattached uploads, feedback images, unknown ids', async () => {
  const at = ctx.clock.now().toISOString()
  for (const [id, kind, attached] of [
    ['draftcover', 'cover', null],
    ['feedbackimg', 'feedback', at],
  ] as const) {
    await ctx.app.db
      .insertInto('content_files')
      .values({
        id,
        kind,
        storage_key: 'content/demo/talk-ct.jpg',
        mime_type: 'image/jpeg',
        size_bytes: 1,
        width: null,
        height: null,
        uploaded_by_user_id: null,
        created_at: at,
        attached_at: attached,
      })
      .execute()
    assert.equal((await ctx.app.inject({ url: `/media/${id}` })).statusCode, 404)
  }
  assert.equal((await ctx.app.inject({ url: '/media/..%2F..%2Fetc' })).statusCode, 404)
  assert.equal((await ctx.app.inject({ url: '/media/nothing-here' })).statusCode, 404)
})
