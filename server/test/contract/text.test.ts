// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { NICKNAME_MAX_LENGTH, NicknameSchema } from '@contract/text'

// zod's maxLength counts code points, as the app's rangeLength does (a reviewer feared UTF-16 units).
test('nicknames count characters as a person does: 20 emoji fit, like the app’s own rule', () => {
  const emoji = '😀'.repeat(NICKNAME_MAX_LENGTH)
  assert.equal(emoji.length, 40)
  assert.equal(NicknameSchema.safeParse(emoji).success, true)
})

test('the 21st character is refused in Chinese', () => {
  const answer = NicknameSchema.safeParse('影'.repeat(NICKNAME_MAX_LENGTH + 1))
  assert.equal(answer.success, false)
  assert.equal(answer.error?.issues[0]?.message, '昵称最多 20 个字')
})
