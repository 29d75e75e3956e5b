import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../src/app'
import { decideAppeal } from '../../../src/domain/profile/real-name'
import type { RealNameProvider } from '../../../src/providers/real-name'
import { closeAfter, testConfig } from '../../helpers'
import {
  bearer,
  buildProfileApp,
  Clock,
  type ProfileApp,
  signUp,
  validIdNumber,
} from '../../domain/profile/support'

/** A provider that knows one true pairing per number, and counts the checks it was asked for. */
function fakeProvider(truth: Map<string, string>): RealNameProvider & { calls: number } {
  return {
    name: 'fake-realname',
    calls: 0,
    async verify({ realName, idNumber }) {
      this.calls += 1
      return { matched: truth.get(idNumber) === realName }
    },
  }
}

let unconfigured: ProfileApp
let verifying: { app: FastifyInstance; clock: Clock; provider: ReturnType<typeof fakeProvider> }
const truth = new Map<string, string>()

before(async () => {
  unconfigured = await buildProfileApp()
  const clock = new Clock()
  const provider = fakeProvider(truth)
  const app = await buildApp(testConfig(), { now: clock.now, providers: { realName: provider } })
  closeAfter(() => app.close())
  verifying = { app, clock, provider }
})

function call(
  app: FastifyInstance,
  token: string,
  method: 'GET' | 'POST',
  url: string,
  body?: object,
) {
  return app.inject({ method, url, headers: bearer(token), ...(body ? { payload: body } : {}) })
}

async function bind(app: FastifyInstance, token: string, realName: string, idCard: string) {
  const res = await call(app, token, 'POST', '/main/account/idcard', { realName, idCard })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}

test('without a provider: 未配置实名核验, and a bound card stays 已绑定, never 已实名', async () => {
  const { app, clock } = unconfigured
  const person = await signUp(app.db, clock.now())
  const card = await bind(app, person.token, '张三', validIdNumber('19900101', 11))
  assert.equal(card.status, 'bound')
  const res = await call(app, person.token, 'POST', '/main/account/idcard/verify', {})
  assert.equal(res.statusCode, 400)
  assert.equal(res.json().error, '未配置实名核验')
  const profile = (await call(app, person.token, 'GET', '/main/account/profile')).json().data
  assert.equal(profile.idCardStatus, 'bound')
  assert.equal(profile.realNameVerified, false)
})

test('a provider’s yes makes the card verified; a mismatch leaves it bound', async () => {
  const { app, clock, provider } = verifying
  const honest = await signUp(app.db, clock.now())
  const number = validIdNumber('19850505', 21)
  truth.set(number, '李四')
  await bind(app, honest.token, '李四', number)
  const ok = await call(app, honest.token, 'POST', '/main/account/idcard/verify', {})
  assert.equal(ok.statusCode, 200, ok.body)
  assert.equal(ok.json().data.status, 'verified')
  const profile = (await call(app, honest.token, 'GET', '/main/account/profile')).json().data
  assert.deepEqual([profile.idCardStatus, profile.realNameVerified], ['verified', true])
  const cards = (await call(app, honest.token, 'GET', '/main/account/cards')).json().data
  assert.equal(cards[0].status, 'verified')
  const calls = provider.calls
  assert.equal(
    (await call(app, honest.token, 'POST', '/main/account/idcard/verify', {})).statusCode,
    200,
  )
  assert.equal(provider.calls, calls, 'a verified card is not checked (and paid for) again')

  const typo = await signUp(app.db, clock.now())
  const other = validIdNumber('19850505', 22)
  truth.set(other, '王五')
  await bind(app, typo.token, '王六', other)
  const refused = await call(app, typo.token, 'POST', '/main/account/idcard/verify', {})
  assert.equal(refused.statusCode, 400)
  assert.match(refused.json().error, /实名核验未通过/)
  const after = (await call(app, typo.token, 'GET', '/main/account/profile')).json().data
  assert.equal(after.idCardStatus, 'bound')

  const none = await signUp(app.db, clock.now())
  const noCard = await call(app, none.token, 'POST', '/main/account/idcard/verify', {})
  assert.equal(noCard.statusCode, 400)
  assert.equal(noCard.json().error, '请先绑定身份证')
})

test('a number bound elsewhere can be appealed; the person sees the operator’s decision', async () => {
  const { app, clock } = unconfigured
  const squatter = await signUp(app.db, clock.now())
  const owner = await signUp(app.db, clock.now())
  const number = validIdNumber('19700707', 31)
  await bind(app, squatter.token, '赵六', number)
  const taken = await call(app, owner.token, 'POST', '/main/account/idcard', {
    realName: '赵六',
    idCard: number,
  })
  assert.equal(taken.json().error, '该身份证已被其他账号绑定')

  const appeal = {
    realName: '赵六',
    idCard: number,
    reason: '这是我本人的身份证，不知道被谁绑定了',
    contact: 'zhao@example.com',
  }
  const res = await call(app, owner.token, 'POST', '/main/account/idcard/appeal', appeal)
  assert.equal(res.statusCode, 200, res.body)
  const recorded = res.json().data
  assert.equal(recorded.status, 'pending')
  assert.equal(recorded.statusLabel, '处理中')
  assert.equal(recorded.numberMasked, `${number.slice(0, 3)}***********${number.slice(-4)}`)
  assert.ok(!res.body.includes(number), 'never the full number')
  const again = await call(app, owner.token, 'POST', '/main/account/idcard/appeal', appeal)
  assert.equal(again.json().data.id, recorded.id, 'a pending appeal is not duplicated')

  const stored = await app.db
    .selectFrom('id_card_appeals')
    .selectAll()
    .where('id', '=', recorded.id)
    .executeTakeFirstOrThrow()
  assert.ok(!JSON.stringify(stored).includes(number), 'the number is stored encrypted')
  assert.ok(!JSON.stringify(stored).includes('赵六'), 'the name is stored encrypted')

  await decideAppeal(
    app.db,
    recorded.id,
    { status: 'resolved', note: '已核实，原绑定已解除，请重新绑定' },
    clock.now(),
  )
  const list = (await call(app, owner.token, 'GET', '/main/account/idcard/appeals')).json().data
  assert.equal(list.length, 1)
  assert.equal(list[0].status, 'resolved')
  assert.equal(list[0].statusLabel, '已处理')
  assert.equal(list[0].operatorNote, '已核实，原绑定已解除，请重新绑定')
  const squatterList = await call(app, squatter.token, 'GET', '/main/account/idcard/appeals')
  assert.deepEqual(squatterList.json().data, [], 'one sees only one’s own appeals')

  const kinds = await app.db
    .selectFrom('audit_events')
    .select('kind')
    .where('user_id', '=', owner.user.id)
    .execute()
  assert.deepEqual(
    kinds.map((row) => row.kind),
    ['id-card-appeal'],
  )
})

test('appeals: only for a number bound to another account; input checked in Chinese; limited', async () => {
  const { app, clock } = unconfigured
  const person = await signUp(app.db, clock.now())
  const own = validIdNumber('19660606', 41)
  await bind(app, person.token, '孙七', own)
  const base = { realName: '孙七', reason: '我本人的身份证号', contact: '13800138000' }
  const cases: [object, string][] = [
    [{ ...base, idCard: validIdNumber('19660606', 42) }, '该身份证未被其他账号绑定，请直接绑定'],
    [{ ...base, idCard: own }, '该身份证已绑定在当前账号，无需申诉'],
    [{ ...base, idCard: own, contact: 'nobody' }, '请填写正确的手机号或邮箱'],
    [{ ...base, idCard: own, reason: '短' }, '申诉说明至少 5 个字'],
  ]
  for (const [payload, error] of cases) {
    const res = await call(app, person.token, 'POST', '/main/account/idcard/appeal', payload)
    assert.equal(res.statusCode, 400, JSON.stringify(payload))
    assert.equal(res.json().error, error)
  }
  // Two tries were counted above (the unbound and the own number); the third is the last.
  const third = await call(app, person.token, 'POST', '/main/account/idcard/appeal', {
    ...base,
    idCard: validIdNumber('19660606', 43),
  })
  assert.equal(third.statusCode, 400)
  const fourth = await call(app, person.token, 'POST', '/main/account/idcard/appeal', {
    ...base,
    idCard: validIdNumber('19660606', 44),
  })
  assert.equal(fourth.statusCode, 429)
})

test('30 parallel appeals by one account: at most 3 a day are looked at, the rest 429', async () => {
  const { app, clock } = unconfigured
  const person = await signUp(app.db, clock.now())
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      call(app, person.token, 'POST', '/main/account/idcard/appeal', {
        realName: '周八',
        idCard: validIdNumber('19700101', 100 + i),
        reason: '我本人的身份证号',
        contact: '13800138000',
      }),
    ),
  )
  const looked = answers.filter((res) => res.statusCode === 400)
  assert.equal(looked.length, 3)
  for (const res of looked) assert.equal(res.json().error, '该身份证未被其他账号绑定，请直接绑定')
  assert.equal(answers.filter((res) => res.statusCode === 429).length, 27)
})

test('30 parallel verifications of a mismatched card: the provider is asked at most 5 times', async () => {
  const { app, clock, provider } = verifying
  const person = await signUp(app.db, clock.now())
  const number = validIdNumber('19900909', 31)
  truth.set(number, '吴九')
  await bind(app, person.token, '吴十', number)
  const before = provider.calls
  const answers = await Promise.all(
    Array.from({ length: 30 }, () =>
      call(app, person.token, 'POST', '/main/account/idcard/verify', {}),
    ),
  )
  // Each check costs money: the daily 5 are reserved before the provider is called.
  assert.equal(provider.calls - before, 5)
  assert.equal(answers.filter((res) => res.statusCode === 400).length, 5)
  assert.equal(answers.filter((res) => res.statusCode === 429).length, 25)
})
