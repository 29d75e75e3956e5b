import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { json, contentApp } from '../content/support'
import { type ProfileApp, signUp, type TestUser } from '../domain/profile/support'

let ctx: ProfileApp
let alice: TestUser
let bob: TestUser
let articleId: string
let videoId: string

before(async () => {
  ctx = await contentApp()
  alice = await signUp(ctx.app.db, ctx.clock.now())
  bob = await signUp(ctx.app.db, ctx.clock.now())
  articleId = (await json(ctx.app, { url: '/main/articles?pageSize=1' })).data.items[0].id
  videoId = (await json(ctx.app, { url: '/main/videos?category=diet' })).data.items[0].id
})

const add = (user: TestUser, kind: string, targetId: string) =>
  json(ctx.app, {
    method: 'POST',
    url: '/main/favourites',
    token: user.token,
    payload: { kind, targetId },
  })
const remove = (user: TestUser, kind: string, targetId: string) =>
  json(ctx.app, {
    method: 'DELETE',
    url: `/main/favourites/${kind}/${targetId}`,
    token: user.token,
  })
const list = (user: TestUser, kind: string) =>
  json(ctx.app, { url: `/main/favourites?kind=${kind}`, token: user.token })
const articleCount = async () =>
  Number(
    (
      await ctx.app.db
        .selectFrom('articles')
        .select('favourite_count')
        .where('id', '=', articleId)
        .executeTakeFirstOrThrow()
    ).favourite_count,
  )

test('favourites are idempotent and the count equals the rows under parallel taps', async () => {
  const results = await Promise.all([
    ...Array.from({ length: 12 }, () => add(alice, 'article', articleId)),
    ...Array.from({ length: 12 }, () => add(bob, 'article', articleId)),
  ])
  assert.ok(results.every((r) => r.status === 200 && r.data.favourited))
  assert.equal(await articleCount(), 2)
  await Promise.all(Array.from({ length: 10 }, () => remove(bob, 'article', articleId)))
  assert.equal(await articleCount(), 1)
  const detail = await json(ctx.app, { url: `/main/articles/${articleId}`, token: alice.token })
  assert.deepEqual([detail.data.favourited, detail.data.favouriteCount], [true, 1])
})

test('the list shows what the server says about each item, with totals per kind, own only', async () => {
  await add(alice, 'video', videoId)
  const articles = await list(alice, 'article')
  assert.equal(articles.status, 200)
  assert.equal(articles.data.items.length, 1)
  assert.deepEqual(articles.data.items[0].link, { route: 'infoDetail', params: { id: articleId } })
  assert.deepEqual(articles.data.totals, {
    article: 1,
    video: 1,
    hospital: 0,
    exam: 0,
    expert: 0,
    question: 0,
  })
  const videos = await list(alice, 'video')
  assert.equal(videos.data.items[0].link.route, 'videoShowYsDetail')
  assert.match(videos.data.items[0].picturePath, /^\/media\//)
  assert.equal((await list(bob, 'article')).data.items.length, 0)
})

test('an unpublished article leaves the list, and cannot be favourited; nor can a missing record', async () => {
  await ctx.app.db
    .updateTable('articles')
    .set({ state: 'unpublished' })
    .where('id', '=', articleId)
    .execute()
  assert.equal((await list(alice, 'article')).data.items.length, 0)
  const refused = await add(bob, 'article', articleId)
  assert.deepEqual([refused.status, refused.error], [404, '要收藏的内容不存在或已下架'])
  await ctx.app.db
    .updateTable('articles')
    .set({ state: 'published' })
    .where('id', '=', articleId)
    .execute()
  assert.equal((await list(alice, 'article')).data.items.length, 1)
  const exam = await add(alice, 'exam', '00000000-0000-0000-0000-000000000000')
  assert.equal(exam.status, 404)
  // A 问答 is only one its asker made public: an article's id is no question.
  assert.equal((await add(alice, 'question', articleId)).status, 404)
  const bad = await add(alice, 'doctor', articleId)
  assert.equal(bad.status, 400)
  assert.equal((await json(ctx.app, { url: '/main/favourites?kind=article' })).status, 401)
})
