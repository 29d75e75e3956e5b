import { idCardCheckChar } from '@/utils/validators'
import {
  CODE_RULES,
  FORM_MESSAGES as M,
  ID_CARD_RULES,
  MOBILE_RULES,
  NEW_PASSWORD_RULES,
  NICKNAME_RULES,
  REAL_NAME_RULES,
  confirmRules,
  differentFrom,
  firstFailure,
  messageOf,
  normaliseIdCard,
  passwordStrength,
} from '../rules'

/** The failing rule's message, and whether the form would still wait for more typing. */
function judge(rules: Parameters<typeof firstFailure>[0], value: string, values = {}) {
  const failure = firstFailure(rules, value, values)
  return (
    failure && {
      message: failure.message,
      unfinished: failure.unfinished?.(value, values) ?? false,
    }
  )
}

describe('form rules', () => {
  it('checks mainland mobiles and knows an unfinished one from a wrong one', () => {
    expect(messageOf(MOBILE_RULES, '')).toBe(M.mobileRequired)
    expect(messageOf(MOBILE_RULES, '13800138000')).toBeNull()
    expect(messageOf(MOBILE_RULES, '12345678901')).toBeNull()
    expect(messageOf(MOBILE_RULES, '11800138000')).toBe(M.mobileInvalid)
    expect(messageOf(MOBILE_RULES, '12a')).toBe(M.mobileDigits)
    expect(judge(MOBILE_RULES, '138')).toEqual({ message: M.mobileInvalid, unfinished: true })
    expect(judge(MOBILE_RULES, '1')?.unfinished).toBe(true)
    expect(judge(MOBILE_RULES, '11')?.unfinished).toBe(false)
    expect(judge(MOBILE_RULES, '10')?.unfinished).toBe(false)
    expect(judge(MOBILE_RULES, '238')?.unfinished).toBe(false)
  })

  it('wants 6-digit codes', () => {
    expect(messageOf(CODE_RULES, '')).toBe(M.codeRequired)
    expect(judge(CODE_RULES, '123')).toEqual({ message: M.codeInvalid, unfinished: true })
    expect(messageOf(CODE_RULES, '12a')).toBe(M.codeDigits)
    expect(messageOf(CODE_RULES, '1234567')).toBe(M.codeInvalid)
    expect(messageOf(CODE_RULES, '123456')).toBeNull()
  })

  it('wants new passwords of 8 to 64 with letters and digits', () => {
    expect(messageOf(NEW_PASSWORD_RULES, 'abc123')).toBe(M.passwordRule)
    expect(messageOf(NEW_PASSWORD_RULES, 'abcdefgh')).toBe(M.passwordRule)
    expect(messageOf(NEW_PASSWORD_RULES, '12345678')).toBe(M.passwordRule)
    expect(messageOf(NEW_PASSWORD_RULES, 'abcd1234')).toBeNull()
    expect(messageOf(NEW_PASSWORD_RULES, `a1${'x'.repeat(63)}`)).toBe(M.passwordTooLong)
  })

  it('rates strength as a hint', () => {
    expect(passwordStrength('abc')).toBe('weak')
    expect(passwordStrength('abcd1234')).toBe('medium')
    expect(passwordStrength('Abcd1234')).toBe('strong')
    expect(passwordStrength('abcdef123456')).toBe('strong')
  })

  it('compares a confirmation with its password, and a new password with the old one', () => {
    const rules = confirmRules('password')
    const values = { password: 'abcd1234', old: 'oldpass1' }
    expect(messageOf(rules, 'abcd1234', values)).toBeNull()
    expect(messageOf(rules, 'abcd12345', values)).toBe(M.passwordMismatch)
    expect(judge(rules, 'abcd', values)?.unfinished).toBe(true)
    expect(judge(rules, 'abce', values)?.unfinished).toBe(false)
    const differs = [differentFrom('old', M.passwordSameAsOld)]
    expect(messageOf(differs, 'oldpass1', values)).toBe(M.passwordSameAsOld)
    expect(messageOf(differs, 'newpass1', values)).toBeNull()
    expect(messageOf(differs, 'oldpass1', { old: '' })).toBeNull()
  })

  it('trims nicknames and limits them to 20 characters', () => {
    expect(messageOf(NICKNAME_RULES, '  ')).toBe(M.nicknameRequired)
    expect(messageOf(NICKNAME_RULES, ' 小王 ')).toBeNull()
    expect(messageOf(NICKNAME_RULES, '字'.repeat(21))).toBe(M.nicknameTooLong)
  })

  it('refuses hidden and control characters and the reserved name, as the server does', () => {
    for (const nickname of ['\u202Egnp.exe', 'a\u200Bb', '\u0007bell', '\u001b[31mred', '\ud800']) {
      expect(messageOf(NICKNAME_RULES, nickname)).toBe('昵称不能包含控制字符或不可见字符')
    }
    expect(messageOf(NICKNAME_RULES, ' 已注销用户 ')).toBe('该昵称不可用')
    expect(messageOf(NICKNAME_RULES, '👨‍👩‍👧 一家')).toBeNull()
  })

  it('accepts Chinese names with the name dot, and waits for an unfinished one', () => {
    expect(messageOf(REAL_NAME_RULES, '张三')).toBeNull()
    expect(messageOf(REAL_NAME_RULES, '阿依古丽·买买提')).toBeNull()
    expect(judge(REAL_NAME_RULES, '阿依古丽·')).toEqual({
      message: M.realNameChinese,
      unfinished: true,
    })
    expect(judge(REAL_NAME_RULES, 'Zhang')?.unfinished).toBe(false)
    expect(judge(REAL_NAME_RULES, '张')).toEqual({ message: M.realNameLength, unfinished: true })
  })

  it('tells a wrong check digit from a wrong birth date', () => {
    const first17 = '11010519491231002'
    const valid = `${first17}${idCardCheckChar(first17)}`
    expect(messageOf(ID_CARD_RULES, valid)).toBeNull()
    const wrong = `${first17}${valid.endsWith('1') ? '2' : '1'}`
    expect(messageOf(ID_CARD_RULES, wrong)).toBe(M.idCardCheck)
    const badDate = '11010519491331'.concat('002')
    expect(messageOf(ID_CARD_RULES, `${badDate}${idCardCheckChar(badDate)}`)).toBe(M.idCardBirth)
    expect(judge(ID_CARD_RULES, '1101')).toEqual({ message: M.idCardLength, unfinished: true })
    expect(messageOf(ID_CARD_RULES, '11X')).toBe(M.idCardCharacters)
    expect(messageOf(ID_CARD_RULES, `0${valid.slice(1)}`)).toBe(M.idCardRegion)
    expect(normaliseIdCard(' 11010 5x ')).toBe('110105X')
  })
})
