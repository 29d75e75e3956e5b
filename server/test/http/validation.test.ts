// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { z } from 'zod/mini'
import { safeParse } from 'zod/v4/core'
import { issueMessage } from '../../src/http/validation'

const Schema = z.object({
  name: z.string(),
  age: z.number().check(z.minimum(0), z.maximum(150)),
  role: z.enum(['patient', 'expert']),
  phone: z.string().check(z.regex(/^1[2-9]\d{9}$/, '请输入正确的手机号')),
})

function firstMessage(input: unknown): string {
  const result = safeParse(Schema, input, { reportInput: true })
  assert.equal(result.success, false)
  return issueMessage(result.error!.issues[0]!)
}

const valid = { name: '李四', age: 30, role: 'patient', phone: '13800138000' }

test('Chinese messages from the contract are kept as they are', () => {
  assert.equal(firstMessage({ ...valid, phone: '123' }), '请输入正确的手机号')
})

test("zod's English texts are replaced by Chinese ones naming the field", () => {
  assert.equal(firstMessage({ ...valid, name: undefined }), '缺少参数 name')
  assert.equal(firstMessage({ ...valid, name: 5 }), '参数 name 格式不正确')
  assert.equal(firstMessage({ ...valid, age: -1 }), '参数 age 过短或过小')
  assert.equal(firstMessage({ ...valid, age: 200 }), '参数 age 过长或过大')
  assert.equal(firstMessage({ ...valid, role: 'admin' }), '参数 role 的取值无效')
  assert.equal(firstMessage('not an object'), '请求参数格式不正确')
  for (const input of [
    { ...valid, name: 5 },
    { ...valid, role: 'admin' },
    { ...valid, age: 200 },
  ]) {
    assert.doesNotMatch(firstMessage(input), /Invalid|expected|received/)
  }
})
