import { NICKNAME_MAX_LENGTH, NicknameSchema } from '../text'

describe('NicknameSchema', () => {
  // zod's maxLength counts code points, as the app's rangeLength does (checked: a reviewer feared UTF-16).
  it('counts characters as a person does: 20 emoji fit, like the app’s own rule', () => {
    const emoji = '😀'.repeat(NICKNAME_MAX_LENGTH)
    expect(emoji.length).toBe(40)
    expect(NicknameSchema.safeParse(emoji).success).toBe(true)
  })

  it('refuses the 21st character in Chinese', () => {
    const answer = NicknameSchema.safeParse('影'.repeat(NICKNAME_MAX_LENGTH + 1))
    expect(answer.success).toBe(false)
    expect(answer.error?.issues[0]?.message).toBe('昵称最多 20 个字')
  })
})
