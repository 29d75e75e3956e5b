import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { DepartmentSchema, HospitalSchema, type RightNode } from '@contract/sso/directory'
import { bearer, buildProfileApp, type ProfileApp, signUp } from '../../domain/profile/support'

let ctx: ProfileApp
before(async () => {
  ctx = await buildProfileApp({ demoMode: true })
})

test('hospitals: the demo directory, labelled as examples, filtered by city', async () => {
  const res = await ctx.app.inject('/sso/hospitals')
  assert.equal(res.statusCode, 200)
  const hospitals = res.json().data.map((h: unknown) => HospitalSchema.parse(h))
  assert.ok(hospitals.length >= 10)
  assert.equal(hospitals[0].name, '示例市第一人民医院')
  assert.equal(hospitals[0].level, '三级甲等')
  for (const hospital of hospitals) {
    assert.match(hospital.name, /^(示例|样板)/, 'never a real hospital’s name')
    assert.match(hospital.address, /演示数据/)
  }
  // The demo hospitals sit in real cities (their names stay 示例…/样板…).
  const city = (await ctx.app.inject('/sso/hospitals?city=上海市')).json().data
  assert.ok(city.length > 0)
  assert.ok(city.every((h: { city: string }) => h.city === '上海市'))
  const long = await ctx.app.inject(`/sso/hospitals?city=${'市'.repeat(21)}`)
  assert.equal(long.statusCode, 400)
})

test('hospitals page: keyword search, page and pageSize', async () => {
  const first = (await ctx.app.inject('/sso/hospitals/page')).json().data
  assert.equal(first.page, 1)
  assert.equal(first.pageSize, 10)
  assert.equal(first.items.length, 10)
  assert.ok(first.total >= 12)
  const second = (await ctx.app.inject('/sso/hospitals/page?page=2&pageSize=10')).json().data
  assert.equal(second.items.length, first.total - 10)
  assert.ok(
    !second.items.some((h: { id: string }) =>
      first.items.some((f: { id: string }) => f.id === h.id),
    ),
  )

  const found = (
    await ctx.app.inject(`/sso/hospitals/page?keyword=${encodeURIComponent('中医')}`)
  ).json().data
  assert.ok(found.total >= 2)
  assert.ok(found.items.every((h: { name: string }) => h.name.includes('中医')))
  const wildcard = (await ctx.app.inject('/sso/hospitals/page?keyword=%25')).json().data
  assert.equal(wildcard.total, 0, '% is a character, not a wildcard')

  const bad = await ctx.app.inject('/sso/hospitals/page?pageSize=51')
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().error, '每页最多 50 条')
  const zero = await ctx.app.inject('/sso/hospitals/page?page=0')
  assert.equal(zero.json().error, '页码从 1 开始')
  const keyword = await ctx.app.inject(`/sso/hospitals/page?keyword=${'医'.repeat(31)}`)
  assert.equal(keyword.json().error, '关键字最多 30 个字')
})

test('departments of a hospital; an unknown hospital is a 404, none given a 400', async () => {
  const res = await ctx.app.inject('/sso/departments?hospitalId=demo-hospital-01')
  assert.equal(res.statusCode, 200)
  const departments = res.json().data.map((d: unknown) => DepartmentSchema.parse(d))
  assert.equal(departments[0].name, '放射科')
  assert.ok(departments.some((d: { name: string }) => d.name === '心内科'))
  assert.ok(departments.every((d: { hospitalId: string }) => d.hospitalId === 'demo-hospital-01'))
  const unknown = await ctx.app.inject('/sso/departments?hospitalId=nope')
  assert.equal(unknown.statusCode, 404)
  assert.equal(unknown.json().error, '该医院不存在')
  const missing = await ctx.app.inject('/sso/departments?hospitalId=')
  assert.equal(missing.statusCode, 400)
  assert.equal(missing.json().error, '请选择医院')
})

function paths(tree: RightNode[]): string[] {
  return tree.flatMap((node) => [...(node.path ? [node.path] : []), ...paths(node.children ?? [])])
}

test('role rights: a patient’s tree; an expert has consultations, wallet and Q&A besides', async () => {
  const patient = await signUp(ctx.app.db, ctx.clock.now())
  const expert = await signUp(ctx.app.db, ctx.clock.now(), { role: 'expert' })
  const p = (
    await ctx.app.inject({ url: '/sso/role-rights', headers: bearer(patient.token) })
  ).json().data
  assert.equal(p.role, 'patient')
  assert.deepEqual(
    p.tree.map((n: RightNode) => n.title),
    ['影像', '报告', '咨询', '收藏', '消息', '专家'],
  )
  const e = (
    await ctx.app.inject({ url: '/sso/role-rights', headers: bearer(expert.token) })
  ).json().data
  assert.equal(e.role, 'expert')
  assert.deepEqual(
    e.tree.map((n: RightNode) => n.title),
    // No 专家主页: the role alone, without an approved application (server/test/experts).
    ['影像', '报告', '咨询', '收藏', '消息', '专家', '患者咨询', '钱包', '专家问答'],
  )
  // 我的主页 and 服务设置 come with certification, not the role (server/test/experts/expert-directory);
  // a patient opens profiles from 找专家, not from 我的.
  assert.ok(!paths(e.tree).includes('pages/experts/services'))
  assert.ok(!paths(p.tree).includes('pages/personalDetail/personalDetail'))
  assert.ok(paths(e.tree).includes('pages/docQuestList/docQuestList'))
  assert.ok(paths(e.tree).includes('pages/myWallet/myWallet'))
  assert.ok(!paths(p.tree).includes('pages/myWallet/myWallet'))
  for (const path of paths(e.tree)) assert.match(path, /^pages\/[A-Za-z]+\/[A-Za-z-]+$/)
})

test('role rights need a valid token', async () => {
  const none = await ctx.app.inject('/sso/role-rights')
  assert.equal(none.statusCode, 401)
  const wrong = await ctx.app.inject({ url: '/sso/role-rights', headers: bearer('nope') })
  assert.equal(wrong.statusCode, 401)
  assert.equal(wrong.json().message, '请重新登录！')
})

test('outside demo mode the directory is empty, not invented', async () => {
  const plain = await buildProfileApp({ demoMode: false })
  assert.deepEqual((await plain.app.inject('/sso/hospitals')).json().data, [])
  assert.equal((await plain.app.inject('/sso/hospitals/page')).json().data.total, 0)
})
