import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, test } from 'node:test'
import { NEW_EXPERT_SETTINGS } from '../../src/domain/experts/settings'
import { HOT_MIN_PEOPLE } from '../../src/domain/search/history'
import { type ProfileApp, signUp, type TestUser } from '../domain/profile/support'
import { contentApp, json } from '../content/support'

let ctx: ProfileApp
let alice: TestUser
let typeId: string

before(async () => {
  ctx = await contentApp()
  alice = await signUp(ctx.app.db, ctx.clock.now())
  typeId = (await ctx.app.db.selectFrom('article_types').select('id').executeTakeFirstOrThrow()).id
})

async function addArticle(title: string, text: string, state: 'published' | 'draft' = 'published') {
  const at = ctx.clock.now().toISOString()
  const id = randomUUID()
  await ctx.app.db
    .insertInto('articles')
    .values({
      id,
      type_id: typeId,
      title,
      summary: '',
      html: `<p>${text}</p>`,
      plain_text: text,
      cover_file_id: null,
      author: null,
      source: null,
      state,
      removed: '[]',
      demo: 0,
      published_at: at,
      created_at: at,
      updated_at: at,
      updated_by_user_id: null,
      read_count: 0,
      like_count: 0,
      favourite_count: 0,
    })
    .execute()
  return id
}

const find = (q: string, extra = '', token?: string) =>
  json(ctx.app, { url: `/main/search?q=${encodeURIComponent(q)}${extra}`, token })

test('a Chinese word is found inside a longer one (肺结节 in 磨玻璃肺结节随访), with highlight runs', async () => {
  const id = await addArticle('随访记录', '患者的磨玻璃肺结节随访已满两年，大小稳定。')
  const res = await find('肺结节', '&kind=article&pageSize=50')
  assert.equal(res.status, 200)
  const hit = res.data.hits.find((h: { id: string }) => h.id === id)
  assert.ok(hit, 'the article is found')
  assert.deepEqual(
    hit.snippet.filter(([, on]: [string, boolean]) => on).map(([t]: [string]) => t),
    ['肺结节'],
  )
  assert.equal(
    hit.snippet.map(([t]: [string]) => t).join(''),
    '患者的磨玻璃肺结节随访已满两年，大小稳定。',
  )
  assert.deepEqual(hit.link, { route: 'infoDetail', params: { id } })
  // Titles that match come first.
  assert.ok(res.data.hits[0].title.some(([, on]: [string, boolean]) => on))
})

test('two-character and one-character queries work too; Latin letters ignore case', async () => {
  const id = await addArticle('结节小记', '短词检索的样本：ct 与 MRI。')
  for (const q of ['结节', '节', 'CT', 'mri']) {
    const res = await find(q, '&kind=article&pageSize=50')
    assert.ok(
      res.data.hits.some((h: { id: string }) => h.id === id),
      `found by ${q}`,
    )
    assert.ok(res.data.totals.article >= 1)
  }
})

test('% and _ are literal, drafts are never found, and nothing matches nothing', async () => {
  const literal = await addArticle('百分号', '达标率 100%_整')
  const draft = await addArticle('草稿里的独有词语甲乙丙', '甲乙丙丁', 'draft')
  assert.ok(
    (await find('100%_', '&kind=article')).data.hits.some((h: { id: string }) => h.id === literal),
  )
  assert.equal(
    (await find('%', '&kind=article')).data.hits.some((h: { id: string }) => h.id === draft),
    false,
  )
  assert.equal((await find('甲乙丙', '&kind=article')).data.totals.article, 0)
  assert.equal((await find('_', '&kind=article')).data.hits.length, 1)
  const none = await find('不存在的搜索词语')
  assert.deepEqual(none.data.totals, { article: 0, video: 0, hospital: 0, expert: 0 })
  const quote = await find('"肺" OR x')
  assert.equal(quote.status, 200)
})

test('without a kind: a few of each kind with every total; videos, hospitals and experts', async () => {
  // An expert is found by the public profile (server/test/experts has the whole of it); the role
  // alone, or a nickname, finds nobody.
  const at = ctx.clock.now().toISOString()
  const hospital = await ctx.app.db.selectFrom('hospitals').select('id').executeTakeFirst()
  const hospitalId =
    hospital?.id ??
    (
      await ctx.app.db
        .insertInto('hospitals')
        .values({
          id: 'hos-search-experts',
          name: '搜索测试医院',
          level: '三级甲等',
          province: '测试省',
          city: '测试市',
          address: '测试路 1 号',
          sort_order: 0,
          created_at: at,
          region_code: null,
          region_name: null,
          ai_reporting: 0,
          demo: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
  for (const [nickname, certified] of [
    ['肺结节专家王医生', false],
    ['王医生', true],
  ] as const) {
    const expert = await signUp(ctx.app.db, ctx.clock.now(), { role: 'expert' })
    await ctx.app.db
      .updateTable('users')
      .set({ nickname })
      .where('id', '=', expert.user.id)
      .execute()
    if (certified) {
      await ctx.app.db
        .insertInto('experts')
        .values({
          user_id: expert.user.id,
          application_id: 'search-test',
          name: '王医生',
          hospital_id: hospitalId,
          department: '放射科',
          title: 'chief',
          specialities: JSON.stringify(['肺结节']),
          introduction: '',
          certified_at: at,
          updated_at: at,
          suspended_at: null,
          suspended_reason: null,
          suspended_by: null,
          photo_path: null,
          demo: 0,
          ...NEW_EXPERT_SETTINGS,
        })
        .execute()
    }
  }
  const res = await find('肺结节')
  assert.ok(res.data.totals.article >= 2)
  assert.equal(res.data.totals.video, 1)
  assert.equal(res.data.totals.expert, 1)
  const kinds = res.data.hits.map((h: { kind: string }) => h.kind)
  assert.ok(kinds.filter((k: string) => k === 'article').length <= 3)
  assert.ok(kinds.includes('video') && kinds.includes('expert'))
  const video = res.data.hits.find((h: { kind: string }) => h.kind === 'video')
  assert.equal(video.link.route, 'videoShowDetail')
  const empty = await find('   ')
  assert.deepEqual([empty.status, empty.error], [400, '请输入要搜索的内容'])
  const long = await find('肺'.repeat(31))
  assert.deepEqual([long.status, long.error], [400, '搜索内容最多 30 个字'])
})

test('history: own only, newest first, one per query, deletable one by one or all', async () => {
  const bob = await signUp(ctx.app.db, ctx.clock.now())
  for (const q of ['肺结节', 'CT', '肺结节']) {
    ctx.clock.advance(1000)
    await find(q, '', alice.token)
  }
  await find('别人的搜索', '', bob.token)
  const mine = await json(ctx.app, { url: '/main/search/history', token: alice.token })
  assert.deepEqual(
    mine.data.map((h: { q: string }) => h.q),
    ['肺结节', 'CT'],
  )
  // Bob cannot delete Alice's entry by its id.
  await json(ctx.app, {
    method: 'DELETE',
    url: `/main/search/history?id=${mine.data[0].id}`,
    token: bob.token,
  })
  assert.equal(
    (await json(ctx.app, { url: '/main/search/history', token: alice.token })).data.length,
    2,
  )
  await json(ctx.app, {
    method: 'DELETE',
    url: `/main/search/history?id=${mine.data[0].id}`,
    token: alice.token,
  })
  assert.deepEqual(
    (await json(ctx.app, { url: '/main/search/history', token: alice.token })).data.map(
      (h: { q: string }) => h.q,
    ),
    ['CT'],
  )
  await json(ctx.app, { method: 'DELETE', url: '/main/search/history', token: alice.token })
  assert.deepEqual(
    (await json(ctx.app, { url: '/main/search/history', token: alice.token })).data,
    [],
  )
  assert.equal(
    (await json(ctx.app, { url: '/main/search/history', token: bob.token })).data.length,
    1,
  )
})

test(`a query is hot only once ${HOT_MIN_PEOPLE} different people searched it; operators' picks first`, async () => {
  const lonely = await signUp(ctx.app.db, ctx.clock.now())
  for (let i = 0; i < 5; i++) await find('某人的私事', '', lonely.token)
  const people = await Promise.all(
    Array.from({ length: HOT_MIN_PEOPLE }, () => signUp(ctx.app.db, ctx.clock.now())),
  )
  for (const person of people.slice(0, -1)) await find('甲状腺结节', '', person.token)
  let hot = (await json(ctx.app, { url: '/main/search/hot' })).data as string[]
  assert.ok(!hot.includes('某人的私事'))
  assert.ok(!hot.includes('甲状腺结节'))
  await find('甲状腺结节', '', people.at(-1)!.token)
  await ctx.app.db
    .insertInto('hot_words')
    .values({ q: '体检报告', sort_order: 0, created_at: ctx.clock.now().toISOString() })
    .execute()
  hot = (await json(ctx.app, { url: '/main/search/hot' })).data
  assert.equal(hot[0], '体检报告')
  assert.ok(hot.includes('甲状腺结节'))
  assert.ok(!hot.includes('某人的私事'))
})

test('one kind pages with the total on every page, past the end too', async () => {
  const ids = [
    await addArticle('翻页甲', '翻页检索词'),
    await addArticle('翻页乙', '翻页检索词'),
    await addArticle('翻页丙', '翻页检索词'),
  ]
  const pages = []
  for (const page of [1, 2, 3, 4]) {
    const res = await find('翻页检索词', `&kind=article&pageSize=1&page=${page}`)
    assert.equal(res.status, 200)
    assert.equal(res.data.totals.article, 3, `page ${page}`)
    pages.push(res.data.hits.map((h: { id: string }) => h.id))
  }
  assert.deepEqual(pages.slice(0, 3).flat().sort(), [...ids].sort())
  assert.deepEqual(pages[3], [])
  const preview = await find('翻页检索词')
  assert.equal(preview.data.totals.article, 3)
  assert.equal(preview.data.hits.filter((h: { kind: string }) => h.kind === 'article').length, 3)
})
