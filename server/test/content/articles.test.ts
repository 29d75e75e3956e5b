import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { DEMO_ARTICLES } from '../../src/domain/content/demo/articles'
import { seedDemoContent } from '../../src/domain/content/demo/seed'
import { type ProfileApp, signUp, type TestUser } from '../domain/profile/support'
import { contentApp, json } from './support'

let ctx: ProfileApp
let alice: TestUser
let bob: TestUser
let first: { id: string; title: string; readCount: number }

before(async () => {
  ctx = await contentApp()
  alice = await signUp(ctx.app.db, ctx.clock.now())
  bob = await signUp(ctx.app.db, ctx.clock.now())
  const list = await json(ctx.app, { url: '/main/articles?pageSize=1' })
  first = list.data.items[0]
})

test('the demo step writes every article once, even when run again', async () => {
  assert.equal(await seedDemoContent(ctx.app.db, ctx.app.store, ctx.clock.now()), false)
  const list = await json(ctx.app, { url: '/main/articles' })
  assert.equal(list.status, 200)
  assert.equal(list.data.total, DEMO_ARTICLES.length)
  assert.ok(DEMO_ARTICLES.length >= 30)
  assert.equal(list.data.pageSize, 10)
  assert.equal(list.data.items.length, 10)
  assert.ok(list.data.items.every((a: { demo: boolean }) => a.demo))
})

test('types carry their published counts, in order; a type filters the list', async () => {
  const types = await json(ctx.app, { url: '/main/articles/types' })
  assert.deepEqual(
    types.data.map((t: { name: string }) => t.name),
    ['疾病科普', '影像检查', '健康生活', '用药安全', '急救常识'],
  )
  const total = types.data.reduce((sum: number, t: { count: number }) => sum + t.count, 0)
  assert.equal(total, DEMO_ARTICLES.length)
  const imaging = types.data[1]
  const list = await json(ctx.app, { url: `/main/articles?typeId=${imaging.id}&pageSize=50` })
  assert.equal(list.data.total, imaging.count)
  assert.ok(list.data.items.every((a: { typeName: string }) => a.typeName === '影像检查'))
})

test('the detail is the sanitised HTML with its source; a draft answers 404 like a missing one', async () => {
  const detail = await json(ctx.app, { url: `/main/articles/${first.id}` })
  assert.equal(detail.status, 200)
  assert.match(detail.data.html, /^<p>|^<h2>/)
  assert.equal(detail.data.source, '医影通编辑部（演示内容）')
  assert.equal(detail.data.liked, false)
  await ctx.app.db
    .updateTable('articles')
    .set({ state: 'draft' })
    .where('id', '=', first.id)
    .execute()
  const hidden = await json(ctx.app, { url: `/main/articles/${first.id}` })
  const missing = await json(ctx.app, {
    url: '/main/articles/00000000-0000-0000-0000-000000000000',
  })
  await ctx.app.db
    .updateTable('articles')
    .set({ state: 'published' })
    .where('id', '=', first.id)
    .execute()
  assert.equal(hidden.status, 404)
  assert.deepEqual(hidden, missing)
})

test('a read counts once per reader per China day, by account or by reader id', async () => {
  const read = (headers: Record<string, string> = {}, token?: string) =>
    json(ctx.app, { method: 'POST', url: `/main/articles/${first.id}/read`, headers, token })
  const readerId = 'r'.repeat(32)
  const a = await read({ 'x-reader-id': readerId })
  const b = await read({ 'x-reader-id': readerId })
  assert.equal(a.data.counted, true)
  assert.equal(b.data.counted, false)
  assert.equal(b.data.readCount, a.data.readCount)
  // Nobody to count once: not counted, never an error.
  const anonymous = await read({ 'x-reader-id': 'short' })
  assert.deepEqual([anonymous.status, anonymous.data.counted], [200, false])
  const signedIn = await read({}, alice.token)
  assert.equal(signedIn.data.counted, true)
  assert.equal(signedIn.data.readCount, a.data.readCount + 1)
  // A signed-in reader's first read of an article earns a point, once.
  const points = await ctx.app.db
    .selectFrom('point_entries')
    .selectAll()
    .where('user_id', '=', alice.user.id)
    .execute()
  assert.deepEqual(
    points.map((p) => [p.reason, p.ref, p.delta]),
    [['read', first.id, 1]],
  )
  const counts = await json(ctx.app, { url: '/main/articles/mine/counts', token: alice.token })
  assert.equal(counts.data.read, 1)
  // The next China day (16:00 UTC is midnight in Beijing) counts again.
  ctx.clock.advance(24 * 3600_000)
  assert.equal((await read({ 'x-reader-id': readerId })).data.counted, true)
  // Sessions made before the jump have expired: the next tests sign in again.
  alice = await signUp(ctx.app.db, ctx.clock.now())
  bob = await signUp(ctx.app.db, ctx.clock.now())
})

test('30 parallel reads by one reader count once; the count equals its rows', async () => {
  const readerId = 'burst-reader-'.padEnd(32, 'x')
  const before = (await json(ctx.app, { url: `/main/articles/${first.id}` })).data.readCount
  const results = await Promise.all(
    Array.from({ length: 30 }, () =>
      json(ctx.app, {
        method: 'POST',
        url: `/main/articles/${first.id}/read`,
        headers: { 'x-reader-id': readerId },
      }),
    ),
  )
  assert.equal(results.filter((r) => r.data.counted).length, 1)
  const after = await ctx.app.db
    .selectFrom('articles')
    .select('read_count')
    .where('id', '=', first.id)
    .executeTakeFirstOrThrow()
  const rows = await ctx.app.db
    .selectFrom('article_reads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('article_id', '=', first.id)
    .executeTakeFirstOrThrow()
  assert.equal(Number(after.read_count), before + 1)
  assert.equal(Number(after.read_count), Number(rows.n))
})

test('likes are idempotent and the count equals the rows under parallel taps', async () => {
  const like = (user: TestUser, liked: boolean) =>
    json(ctx.app, {
      method: 'POST',
      url: `/main/articles/${first.id}/like`,
      token: user.token,
      payload: { liked },
    })
  const unauthenticated = await json(ctx.app, {
    method: 'POST',
    url: `/main/articles/${first.id}/like`,
    payload: { liked: true },
  })
  assert.equal(unauthenticated.status, 401)
  await Promise.all(
    Array.from({ length: 15 }, () => like(alice, true)).concat(
      Array.from({ length: 15 }, () => like(bob, true)),
    ),
  )
  let row = await ctx.app.db
    .selectFrom('articles')
    .select('like_count')
    .where('id', '=', first.id)
    .executeTakeFirstOrThrow()
  assert.equal(Number(row.like_count), 2)
  // Alice taps on and off in a burst: whatever the order, the count equals the rows.
  await Promise.all(Array.from({ length: 20 }, (_, i) => like(alice, i % 2 === 0)))
  row = await ctx.app.db
    .selectFrom('articles')
    .select('like_count')
    .where('id', '=', first.id)
    .executeTakeFirstOrThrow()
  const rows = await ctx.app.db
    .selectFrom('article_likes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('article_id', '=', first.id)
    .executeTakeFirstOrThrow()
  assert.equal(Number(row.like_count), Number(rows.n))
  const final = await like(alice, false)
  assert.deepEqual(final.data, { liked: false, likeCount: 1 })
  const detail = await json(ctx.app, { url: `/main/articles/${first.id}`, token: bob.token })
  assert.equal(detail.data.liked, true)
})
