import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { EXPERT_PROFILE_MESSAGES } from '@contract/main/expert-profiles'
import type { RightNode } from '@contract/sso/directory'
import { signUp, type TestUser } from '../domain/profile/support'
import { TEST_DB_KIND } from '../helpers'
import {
  addHospital,
  caller,
  directExpert,
  type ExpertWorld,
  expertWorld,
  pendingApplicant,
  PRACTICE_NO,
  QUALIFICATION_NO,
} from './support'

/*
 * 找专家, the public profile, 搜索 and 收藏 of experts: only certified, non-suspended experts are
 * public, in the contract's order; the profile never carries the certificate numbers, the ID card,
 * the certificate photos or the phone; a suspended or never-certified expert is 404 to all but
 * themself.
 */

let world: ExpertWorld
let call: ReturnType<typeof caller>
let operator: TestUser
let patient: TestUser
/** Certified through the whole flow (application, photos, approval): has numbers to leak. */
let zhang: { user: TestUser; idNumber: string }
let li: TestUser
let wang: TestUser
let zhao: TestUser
let roleOnly: TestUser

before(async () => {
  world = await expertWorld()
  call = caller(world)
  const now = world.ctx.clock.now()
  operator = await signUp(world.ctx.app.db, now, { role: 'operator' })
  patient = await signUp(world.ctx.app.db, now)
  roleOnly = await signUp(world.ctx.app.db, now, { role: 'expert' })
  const shanghai = await addHospital(world, {
    name: '华东示范医科大学附属医院',
    province: '上海市',
    city: '上海市',
  })
  const pending = await pendingApplicant(world, '张医生')
  const approved = await call(
    operator,
    'POST',
    `/main/operator/expert-applications/${pending.applicationId}/approve`,
  )
  assert.equal(approved.status, 200, approved.error ?? '')
  const card = await world.ctx.app.db
    .selectFrom('id_cards')
    .select('number_encrypted')
    .where('user_id', '=', pending.user.user.id)
    .executeTakeFirstOrThrow()
  zhang = {
    user: pending.user,
    idNumber: world.ctx.app.personalCipher.decrypt(card.number_encrypted),
  }
  li = await directExpert(world, {
    name: '李主任',
    hospitalId: shanghai,
    title: 'chief',
    specialities: ['神经影像'],
    imagingEnabled: false,
    certifiedAt: '2030-01-01T00:00:00.000Z',
  })
  wang = await directExpert(world, {
    name: '王医生',
    hospitalId: shanghai,
    department: '心内科',
    title: 'associate-chief',
    specialities: ['冠脉CTA'],
    accepting: false,
  })
  zhao = await directExpert(world, { name: '赵医生', title: 'resident' })
  const suspended = await call(operator, 'POST', `/main/operator/experts/${zhao.user.id}/suspend`, {
    reason: '资质复核中',
  })
  assert.equal(suspended.status, 200, suspended.error ?? '')
})

const names = (items: { name: string }[]) => items.map((item) => item.name)

test(`the directory: public experts only, accepting first, then by title; filters and keyword (${TEST_DB_KIND})`, async () => {
  const all = await call(null, 'GET', '/main/experts')
  assert.equal(all.status, 200, all.error ?? '')
  assert.deepEqual(names(all.data.items), ['李主任', '张医生', '王医生'])
  assert.equal(all.data.total, 3)
  const first = all.data.items[1]
  assert.equal(first.titleLabel, '主治医师')
  assert.equal(first.hospital.name, '认证测试市第一人民医院')
  assert.deepEqual(first.specialities, ['肺结节', '胸部影像'])
  assert.deepEqual(
    first.services.map((s: { kind: string; priceFen: number; enabled: boolean }) => [
      s.kind,
      s.enabled,
      s.priceFen,
    ]),
    [
      ['text', true, 3000],
      ['imaging', true, 20000],
    ],
  )

  const cases: [string, string[]][] = [
    ['department=放射科', ['李主任', '张医生']],
    ['province=上海市', ['李主任', '王医生']],
    ['city=测试市', ['张医生']],
    ['title=chief', ['李主任']],
    ['service=imaging', ['张医生', '王医生']],
    // A partial Chinese word of a hospital's name, of a name, a department and a speciality.
    ['keyword=医科大学', ['李主任', '王医生']],
    ['keyword=张医', ['张医生']],
    ['keyword=心内', ['王医生']],
    ['keyword=冠脉', ['王医生']],
    ['keyword=结节', ['张医生']],
    ['keyword=赵医生', []],
    ['department=放射科&keyword=医科', ['李主任']],
  ]
  for (const [query, expected] of cases) {
    const url = `/main/experts?${new URLSearchParams(query).toString()}`
    const res = await call(null, 'GET', url)
    assert.equal(res.status, 200, `${query}: ${res.error}`)
    assert.deepEqual(names(res.data.items), expected, query)
    assert.equal(res.data.total, expected.length, query)
  }

  // Paging: pages of one, no overlap, no gap, the same total on each.
  const paged: string[] = []
  for (let p = 1; p <= 4; p += 1) {
    const res = await call(null, 'GET', `/main/experts?page=${p}&pageSize=1`)
    assert.equal(res.data.total, 3)
    paged.push(...names(res.data.items))
  }
  assert.deepEqual(paged, ['李主任', '张医生', '王医生'])

  // Mistakes are 400 with words a person can act on, never 500.
  const bad = await call(null, 'GET', '/main/experts?title=professor')
  assert.equal(bad.status, 400)
  assert.equal(bad.error, '请选择职称')
  const long = await call(
    null,
    'GET',
    `/main/experts?keyword=${encodeURIComponent('医'.repeat(31))}`,
  )
  assert.equal(long.status, 400)
  assert.equal(long.error, '关键字最多 30 个字')
  const odd = await call(null, 'GET', `/main/experts?keyword=${encodeURIComponent('%_\\')}`)
  assert.equal(odd.status, 200)
  assert.equal(odd.data.total, 0)
})

test(`the filters list only what public experts have (${TEST_DB_KIND})`, async () => {
  const res = await call(null, 'GET', '/main/experts/filters')
  assert.equal(res.status, 200, res.error ?? '')
  assert.deepEqual([...res.data.departments].sort(), ['心内科', '放射科'].sort())
  const regions = res.data.regions.map((r: { province: string; cities: string[] }) => [
    r.province,
    r.cities,
  ])
  assert.deepEqual(
    regions.sort(),
    [
      ['上海市', ['上海市']],
      ['测试省', ['测试市']],
    ].sort(),
  )
})

test(`the profile: public fields only, never numbers, photos, ID card or phone (${TEST_DB_KIND})`, async () => {
  const res = await world.ctx.app.inject({ url: `/main/experts/${zhang.user.user.id}` })
  assert.equal(res.statusCode, 200, res.body)
  const body = res.body
  const data = (JSON.parse(body) as { data: Record<string, unknown> }).data
  assert.equal(data.name, '张医生', 'the certified name is the bound card holder’s')
  assert.equal(data.introduction, '从事影像诊断十年。')
  assert.equal(typeof data.certifiedAt, 'string')
  assert.equal(data.stats, null)
  assert.equal(data.self, false)
  assert.equal(data.favourited, false)
  for (const secret of [
    PRACTICE_NO,
    QUALIFICATION_NO,
    zhang.idNumber,
    zhang.user.mobile!,
    '/main/experts/photos',
  ]) {
    assert.ok(!body.includes(secret), `the profile leaks ${secret}`)
  }
  for (const key of [
    'practiceCertificateNo',
    'qualificationCertificateNo',
    'photos',
    'mobile',
    'idCard',
    'idNumber',
    'practiceScope',
  ]) {
    assert.ok(!(key in data), `the profile has ${key}`)
  }
  assert.ok(!/\d{15}/.test(body), 'no certificate-like number in the profile')
  assert.equal(data.photoPath, null, 'no picture until the expert has an avatar')
  // The expert's own avatar is their public picture (public under /uploads, like every avatar).
  await world.ctx.app.db
    .updateTable('users')
    .set({ avatar_url: '/uploads/avatars/zhang.png' })
    .where('id', '=', zhang.user.user.id)
    .execute()
  const after = await world.ctx.app.inject({ url: `/main/experts/${zhang.user.user.id}` })
  assert.equal(after.json().data.photoPath, '/uploads/avatars/zhang.png')
  await world.ctx.app.db
    .updateTable('users')
    .set({ avatar_url: null })
    .where('id', '=', zhang.user.user.id)
    .execute()
})

test(`suspended or never certified: 404 to everyone but the expert themself (${TEST_DB_KIND})`, async () => {
  const missing = await call(patient, 'GET', '/main/experts/00000000-0000-0000-0000-000000000000')
  assert.equal(missing.status, 404)
  assert.equal(missing.error, EXPERT_PROFILE_MESSAGES.notFound)
  for (const id of [zhao.user.id, roleOnly.user.id, patient.user.id]) {
    for (const who of [null, patient, operator]) {
      const res = await call(who, 'GET', `/main/experts/${id}`)
      assert.equal(res.status, 404, id)
      assert.equal(res.error, missing.error)
    }
  }
  const own = await call(zhao, 'GET', `/main/experts/${zhao.user.id}`)
  assert.equal(own.status, 200, own.error ?? '')
  assert.equal(own.data.self, true)
  const self = await call(zhang.user, 'GET', `/main/experts/${zhang.user.user.id}`)
  assert.equal(self.data.self, true)
})

test(`搜索 finds public experts by name, hospital, department and speciality (${TEST_DB_KIND})`, async () => {
  const find = (q: string) =>
    call(null, 'GET', `/main/search?kind=expert&q=${encodeURIComponent(q)}`)
  const byHospital = await find('医科大学')
  assert.equal(byHospital.status, 200, byHospital.error ?? '')
  assert.equal(byHospital.data.totals.expert, 2)
  const hit = byHospital.data.hits[0]
  assert.equal(hit.link.route, 'personalDetail')
  assert.equal(hit.link.params.id, li.user.id)
  const snippet = hit.snippet.map(([text]: [string]) => text).join('')
  assert.ok(snippet.startsWith('主任医师 · 华东示范医科大学附属医院 · 放射科'), snippet)
  assert.ok(hit.snippet.some(([text, on]: [string, boolean]) => on && text === '医科大学'))
  assert.equal((await find('冠脉')).data.totals.expert, 1)
  assert.equal((await find('心内')).data.totals.expert, 1)
  assert.equal((await find('张医')).data.hits[0].title.map(([t]: [string]) => t).join(''), '张医生')
  assert.equal((await find('赵医生')).data.totals.expert, 0, 'a suspended expert is not found')
  void wang
})

test(`收藏 of experts: public ones only, one favourite under concurrent taps, gone while suspended (${TEST_DB_KIND})`, async () => {
  const fan = await signUp(world.ctx.app.db, world.ctx.clock.now())
  const taps = await Promise.all(
    Array.from({ length: 8 }, () =>
      call(fan, 'POST', '/main/favourites', { kind: 'expert', targetId: li.user.id }),
    ),
  )
  for (const tap of taps) assert.equal(tap.status, 200, tap.error ?? '')
  assert.equal(taps.at(-1)!.data.count >= 1, true)
  const profile = await call(fan, 'GET', `/main/experts/${li.user.id}`)
  assert.equal(profile.data.favouriteCount, 1)
  assert.equal(profile.data.favourited, true)
  const anonymous = await call(null, 'GET', `/main/experts/${li.user.id}`)
  assert.deepEqual([anonymous.data.favouriteCount, anonymous.data.favourited], [1, false])

  const list = await call(fan, 'GET', '/main/favourites?kind=expert')
  assert.equal(list.status, 200, list.error ?? '')
  assert.equal(list.data.items.length, 1)
  const item = list.data.items[0]
  assert.equal(item.title, '李主任')
  assert.equal(item.subtitle, '主任医师 · 华东示范医科大学附属医院 · 放射科')
  assert.deepEqual(item.link, { route: 'personalDetail', params: { id: li.user.id } })

  for (const id of [zhao.user.id, roleOnly.user.id]) {
    const refused = await call(fan, 'POST', '/main/favourites', { kind: 'expert', targetId: id })
    assert.equal(refused.status, 404, id)
  }

  const suspended = await call(operator, 'POST', `/main/operator/experts/${li.user.id}/suspend`, {
    reason: '暂停核查',
  })
  assert.equal(suspended.status, 200, suspended.error ?? '')
  assert.equal((await call(fan, 'GET', '/main/favourites?kind=expert')).data.items.length, 0)
  assert.equal((await call(null, 'GET', '/main/experts')).data.total, 2)
  const resumed = await call(operator, 'POST', `/main/operator/experts/${li.user.id}/resume`)
  assert.equal(resumed.status, 200, resumed.error ?? '')
  assert.equal((await call(fan, 'GET', '/main/favourites?kind=expert')).data.items.length, 1)
  assert.equal((await call(null, 'GET', '/main/experts')).data.total, 3)
})

test(`the role-right tree lists 我的主页 and 服务设置 by the experts row, not the role (${TEST_DB_KIND})`, async () => {
  const paths = (tree: RightNode[]): string[] =>
    tree.flatMap((node) => [...(node.path ? [node.path] : []), ...paths(node.children ?? [])])
  const treeOf = async (who: TestUser) =>
    paths((await call(who, 'GET', '/sso/role-rights')).data.tree)
  assert.ok((await treeOf(zhang.user)).includes('pages/experts/services'))
  assert.ok((await treeOf(zhao)).includes('pages/personalDetail/personalDetail'), 'suspended')
  assert.ok(!(await treeOf(roleOnly)).includes('pages/experts/services'))
  assert.ok(!(await treeOf(patient)).includes('pages/experts/services'))
  assert.ok((await treeOf(patient)).includes('pages/expertPerfect/expertPerfect'))
})
