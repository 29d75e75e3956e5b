import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { before, test } from 'node:test'
import { DEFAULT_FEATURES, ensureFeatures } from '../../src/domain/apps/features'
import { award } from '../../src/domain/points'
import { json } from '../content/support'
import { buildProfileApp, type ProfileApp, signUp, type TestUser } from '../domain/profile/support'

let ctx: ProfileApp
let alice: TestUser
let webRoot: string

before(async () => {
  webRoot = mkdtempSync(path.join(os.tmpdir(), 'yx-web-root-'))
  ctx = await buildProfileApp({ logLevel: 'silent', webRoot })
  alice = await signUp(ctx.app.db, ctx.clock.now())
})

test("the features are on in the server's order; one switched off is gone, and stays off after a restart", async () => {
  const all = await json(ctx.app, { url: '/main/app/features' })
  assert.deepEqual(
    all.data.map((f: { key: string }) => f.key),
    DEFAULT_FEATURES.map((f) => f.key),
  )
  assert.deepEqual(all.data[0].link, { route: 'infoList', params: {} })
  const icon = await ctx.app.inject({ url: all.data[0].iconPath })
  assert.equal(icon.statusCode, 200)
  assert.equal(icon.headers['content-type'], 'image/svg+xml')
  assert.equal((await ctx.app.inject({ url: '/media/icons/..%2Fpackage' })).statusCode, 404)
  await ctx.app.db.updateTable('features').set({ enabled: 0 }).where('key', '=', 'search').execute()
  await ctx.app.db
    .updateTable('features')
    .set({ sort_order: 1 })
    .where('key', '=', 'feedback')
    .execute()
  assert.equal(await ensureFeatures(ctx.app.db, ctx.clock.now()), 0)
  const after = await json(ctx.app, { url: '/main/app/features' })
  const keys = after.data.map((f: { key: string }) => f.key)
  assert.equal(keys[0], 'feedback')
  assert.ok(!keys.includes('search'))
})

test('points: integers in a ledger, one event pays once under a burst, never below zero', async () => {
  const results = await Promise.all(
    Array.from({ length: 20 }, () =>
      award(
        ctx.app.db,
        { userId: alice.user.id, reason: 'feedbackAdopted', ref: 'fb-1', delta: 50 },
        ctx.clock.now(),
      ),
    ),
  )
  assert.equal(results.filter((r) => r !== null).length, 1)
  await award(
    ctx.app.db,
    { userId: alice.user.id, reason: 'read', ref: 'a-1', delta: 1 },
    ctx.clock.now(),
  )
  await assert.rejects(
    award(
      ctx.app.db,
      { userId: alice.user.id, reason: 'operator', ref: 'take-100', delta: -100 },
      ctx.clock.now(),
    ),
    /积分不足/,
  )
  const points = await json(ctx.app, { url: '/main/points', token: alice.token })
  assert.equal(points.data.balance, 51)
  assert.deepEqual(
    points.data.items
      .map((p: { reasonLabel: string; delta: number; balanceAfter: number }) => [
        p.reasonLabel,
        p.delta,
        p.balanceAfter,
      ])
      .sort(),
    [
      ['反馈被采纳', 50, 50],
      ['阅读文章', 1, 51],
    ],
  )
  assert.equal((await json(ctx.app, { url: '/main/points' })).status, 401)
})

test('option dictionaries, web origins and the deployed build', async () => {
  const relation = await json(ctx.app, { url: '/main/app/options?dictionary=relation' })
  assert.ok(relation.data.some((o: { label: string }) => o.label === '子女'))
  const feedbackTypes = await json(ctx.app, { url: '/main/app/options?dictionary=feedbackType' })
  assert.equal(feedbackTypes.data[0].label, '功能异常')
  assert.equal((await json(ctx.app, { url: '/main/app/options?dictionary=secrets' })).status, 400)
  const origins = await json(ctx.app, { url: '/main/app/web-origins' })
  // Demo mode allows the national health commission's site; production starts with none.
  assert.deepEqual(origins.data, ['https://www.nhc.gov.cn'])
  const none = await json(ctx.app, { url: '/main/app/build' })
  assert.equal(none.data.h5Build, null)
  writeFileSync(path.join(webRoot, '.source-hash'), 'ab'.repeat(32))
  const built = await json(ctx.app, { url: '/main/app/build' })
  assert.equal(built.data.h5Build, 'ab'.repeat(32))
  assert.match(built.data.serverVersion, /^\d+\.\d+\.\d+/)
})
