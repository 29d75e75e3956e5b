import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { AgreementSchema, PolicyVersionSchema, SOFTWARE_NAMES } from '@contract/main/app'
import { buildTestApp } from '../../helpers'

let app: FastifyInstance
before(async () => {
  app = await buildTestApp({ demoMode: false })
})

test('GET /main/app/version answers the privacy policy version in the envelope', async () => {
  for (const softwareName of Object.values(SOFTWARE_NAMES)) {
    const res = await app.inject(`/main/app/version?softwareName=${softwareName}`)
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.equal(body.code, 200)
    assert.equal(body.message, 'ok')
    assert.equal(body.error, null)
    const data = PolicyVersionSchema.parse(body.data)
    assert.equal(data.softwareName, softwareName)
    assert.equal(data.version, '1.0.0')
    assert.ok(!Number.isNaN(Date.parse(data.updatedAt)))
  }
})

test('an unknown softwareName gets the default policy version', async () => {
  const known = (await app.inject('/main/app/version?softwareName=yingxiang-weapp')).json()
  const unknown = (await app.inject('/main/app/version?softwareName=some-other-app')).json()
  assert.equal(unknown.code, 200)
  assert.equal(unknown.data.softwareName, 'some-other-app')
  assert.equal(unknown.data.version, known.data.version)
})

test('a missing or malformed softwareName answers 400 with a Chinese error', async () => {
  const cases: [string, string][] = [
    ['/main/app/version', '缺少 softwareName'],
    ['/main/app/version?softwareName=', '缺少 softwareName'],
    [
      '/main/app/version?softwareName=%E5%8C%BB%E5%BD%B1',
      'softwareName 只能包含字母、数字、下划线、点和横线',
    ],
    ['/main/app/version?softwareName=a%20b', 'softwareName 只能包含字母、数字、下划线、点和横线'],
    [`/main/app/version?softwareName=${'a'.repeat(65)}`, 'softwareName 过长'],
    ['/main/app/version?softwareName=a&softwareName=b', 'softwareName 格式不正确'],
  ]
  for (const [url, error] of cases) {
    const res = await app.inject(url)
    assert.equal(res.statusCode, 400, url)
    assert.deepEqual(
      res.json(),
      { code: 400, message: '请求参数有误', data: null, error, reason: null },
      url,
    )
  }
})

test('GET /main/app/agreements/:kind answers each full text', async () => {
  const titles = {
    privacy: '医影通隐私政策',
    user: '医影通用户服务协议',
    expert: '医影通专家服务协议',
  }
  for (const [kind, title] of Object.entries(titles)) {
    const res = await app.inject(`/main/app/agreements/${kind}`)
    assert.equal(res.statusCode, 200, kind)
    const data = AgreementSchema.parse(res.json().data)
    assert.equal(data.kind, kind)
    assert.equal(data.title, title)
    assert.equal(data.version, '1.0.0')
    assert.ok(data.content.length > 800, `${kind} is a full text`)
    assert.ok(data.content.includes('\n\n'), 'paragraphs are separated by blank lines')
  }
})

test('the privacy policy covers what a medical-imaging app must say', async () => {
  const res = await app.inject('/main/app/agreements/privacy?softwareName=yingxiang-weapp')
  const { content } = res.json().data as { content: string }
  for (const topic of [
    '身份证号码',
    '医学影像',
    '检查报告',
    '敏感个人信息',
    '中华人民共和国境内',
    '15个工作日',
    '单独授权',
    '撤回同意',
    '注销账号',
    '更正',
    '删除',
    '联系我们',
    '个人信息保护法',
  ]) {
    assert.ok(content.includes(topic), `privacy policy mentions ${topic}`)
  }
})

test('the version endpoint and the privacy text agree', async () => {
  const version = (await app.inject('/main/app/version?softwareName=yingxiang-h5')).json().data
  const text = (await app.inject('/main/app/agreements/privacy?softwareName=yingxiang-h5')).json()
    .data
  assert.equal(version.version, text.version)
  assert.equal(version.updatedAt, text.updatedAt)
})

test('an unknown kind or a bad softwareName answers 400 with a Chinese error', async () => {
  const kind = await app.inject('/main/app/agreements/cookies')
  assert.equal(kind.statusCode, 400)
  assert.deepEqual(kind.json(), {
    code: 400,
    message: '请求参数有误',
    data: null,
    error: '协议类型不存在，可选：privacy（隐私政策）、user（用户协议）、expert（专家协议）',
    reason: null,
  })
  const name = await app.inject('/main/app/agreements/user?softwareName=%3Cscript%3E')
  assert.equal(name.statusCode, 400)
  assert.equal(name.json().error, 'softwareName 只能包含字母、数字、下划线、点和横线')
})
