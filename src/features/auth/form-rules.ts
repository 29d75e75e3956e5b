import { code, mobile, rangeLength } from '@/utils/validators'

/**
 * The rules of the account forms, as messages. `null` means fine. Each rule also says whether a
 * value is merely unfinished (`138` on its way to 11 digits), so a form can check as the person types
 * without scolding them for the digits they have not typed yet.
 */
export interface FieldRule {
  check: (value: string) => string | null
  /** True while the value can still become valid by typing more. */
  unfinished?: (value: string) => boolean
}

export const MESSAGES = {
  mobileRequired: '请输入手机号',
  mobileInvalid: '请输入正确的 11 位手机号',
  codeRequired: '请输入验证码',
  codeInvalid: '请输入 6 位数字验证码',
  passwordRequired: '请输入密码',
  passwordRule: '密码至少 8 位，需同时包含字母和数字',
  passwordTooLong: '密码最多 64 位',
  passwordMismatch: '两次输入的密码不一致',
  passwordSameAsOld: '新密码不能与原密码相同',
  oldPasswordRequired: '请输入原密码',
  nicknameRequired: '请输入昵称',
  nicknameTooLong: '昵称最多 20 个字',
  agreementRequired: '请先阅读并同意《用户协议》和《隐私政策》',
} as const

export const mobileRule: FieldRule = {
  check: (value) => {
    if (value === '') return MESSAGES.mobileRequired
    return mobile(value) ? null : MESSAGES.mobileInvalid
  },
  // 1, then 2-9, then digits: anything shorter than 11 on that path may still become a number.
  unfinished: (value) => value.length < 11 && /^(?:1(?:[2-9]\d*)?)?$/.test(value),
}

export const codeRule: FieldRule = {
  check: (value) => {
    if (value === '') return MESSAGES.codeRequired
    return code(value, 6) ? null : MESSAGES.codeInvalid
  },
  unfinished: (value) => /^\d{0,5}$/.test(value),
}

/** Login only asks for something typed: an old password may predate today's rule. */
export const loginPasswordRule: FieldRule = {
  check: (value) => {
    if (value === '') return MESSAGES.passwordRequired
    return rangeLength(value, [1, 64]) ? null : MESSAGES.passwordTooLong
  },
}

/** New passwords: 8 to 64 characters with letters and digits (contract/common.ts PasswordSchema). */
export const newPasswordRule: FieldRule = {
  check: (value) => {
    if (value === '') return MESSAGES.passwordRequired
    if (!rangeLength(value, [1, 64])) return MESSAGES.passwordTooLong
    if (!rangeLength(value, [8, 64]) || !/[A-Za-z]/.test(value) || !/\d/.test(value)) {
      return MESSAGES.passwordRule
    }
    return null
  },
}

export function confirmRule(password: () => string): FieldRule {
  return {
    check: (value) => {
      if (value === '') return '请再次输入新密码'
      return value === password() ? null : MESSAGES.passwordMismatch
    },
    unfinished: (value) => password().startsWith(value) && value.length < password().length,
  }
}

export const nicknameRule: FieldRule = {
  check: (value) => {
    const trimmed = value.trim()
    if (trimmed === '') return MESSAGES.nicknameRequired
    return rangeLength(trimmed, [1, 20]) ? null : MESSAGES.nicknameTooLong
  },
}

export type PasswordStrength = 'weak' | 'medium' | 'strong'

export const STRENGTH_TEXT: Record<PasswordStrength, string> = {
  weak: '弱',
  medium: '中',
  strong: '强',
}

/**
 * A hint, not a rule: length and variety of character kinds. Anything that fails the rule is weak;
 * 12+ characters or three kinds is strong.
 */
export function passwordStrength(value: string): PasswordStrength {
  if (newPasswordRule.check(value) !== null) return 'weak'
  const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length
  if (kinds >= 3 || (value.length >= 12 && kinds >= 2)) return 'strong'
  return 'medium'
}
