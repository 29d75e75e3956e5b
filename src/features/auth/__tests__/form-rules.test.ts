import {
  MESSAGES,
  codeRule,
  confirmRule,
  mobileRule,
  newPasswordRule,
  nicknameRule,
  passwordStrength,
} from '../form-rules'

describe('account form rules', () => {
  it('checks mainland mobiles and knows an unfinished one from a wrong one', () => {
    expect(mobileRule.check('')).toBe(MESSAGES.mobileRequired)
    expect(mobileRule.check('13800138000')).toBeNull()
    expect(mobileRule.check('12345678901')).toBeNull()
    expect(mobileRule.check('11800138000')).toBe(MESSAGES.mobileInvalid)
    expect(mobileRule.unfinished?.('138')).toBe(true)
    expect(mobileRule.unfinished?.('1')).toBe(true)
    expect(mobileRule.unfinished?.('11')).toBe(false)
    expect(mobileRule.unfinished?.('238')).toBe(false)
    expect(mobileRule.unfinished?.('13800138000')).toBe(false)
  })

  it('wants 6-digit codes', () => {
    expect(codeRule.check('12345')).toBe(MESSAGES.codeInvalid)
    expect(codeRule.check('123456')).toBeNull()
    expect(codeRule.unfinished?.('123')).toBe(true)
    expect(codeRule.unfinished?.('12a')).toBe(false)
  })

  it('wants new passwords of 8+ with letters and digits', () => {
    expect(newPasswordRule.check('abc123')).toBe(MESSAGES.passwordRule)
    expect(newPasswordRule.check('abcdefgh')).toBe(MESSAGES.passwordRule)
    expect(newPasswordRule.check('12345678')).toBe(MESSAGES.passwordRule)
    expect(newPasswordRule.check('abcd1234')).toBeNull()
    expect(newPasswordRule.check(`a1${'x'.repeat(63)}`)).toBe(MESSAGES.passwordTooLong)
  })

  it('rates strength as a hint', () => {
    expect(passwordStrength('abc')).toBe('weak')
    expect(passwordStrength('abcd1234')).toBe('medium')
    expect(passwordStrength('Abcd1234')).toBe('strong')
    expect(passwordStrength('abcdef123456')).toBe('strong')
  })

  it('compares the confirmation with the password', () => {
    const rule = confirmRule(() => 'abcd1234')
    expect(rule.check('abcd1234')).toBeNull()
    expect(rule.check('abcd12345')).toBe(MESSAGES.passwordMismatch)
    expect(rule.unfinished?.('abcd')).toBe(true)
  })

  it('trims nicknames and limits them to 20 characters', () => {
    expect(nicknameRule.check('  ')).toBe(MESSAGES.nicknameRequired)
    expect(nicknameRule.check(' 小王 ')).toBeNull()
    expect(nicknameRule.check('字'.repeat(21))).toBe(MESSAGES.nicknameTooLong)
  })
})
