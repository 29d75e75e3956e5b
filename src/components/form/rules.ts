import { NICKNAME_MESSAGES, RESERVED_NICKNAMES } from '@contract/text'
import {
  chinese,
  code,
  digits,
  displayText,
  idCard,
  idCardCheckChar,
  mobile,
  rangeLength,
} from '@/utils/validators'

/** Every field of a form by name, so a rule can compare fields (the confirmation of a password). */
export type Values = Readonly<Record<string, string>>

/**
 * One rule of a field: a validator of utils/validators and the Chinese message shown when it fails.
 * `unfinished` says the value may still become valid by typing more (`138` on its way to 11
 * digits), so the form waits for blur or submit before showing the message.
 */
export interface Rule {
  test: (value: string, values: Values) => boolean
  message: string
  unfinished?: (value: string, values: Values) => boolean
}

export function rule(
  test: (value: string, values: Values) => boolean,
  message: string,
  unfinished?: (value: string, values: Values) => boolean,
): Rule {
  return { test, message, unfinished }
}

/** A field that must not be left empty (blank counts as empty). */
export function required(message: string): Rule {
  return rule((value) => value.trim() !== '', message)
}

/** The first rule a value fails, or null when it passes them all. */
export function firstFailure(
  rules: readonly Rule[],
  value: string,
  values: Values = {},
): Rule | null {
  return rules.find((item) => !item.test(value, values)) ?? null
}

/** The message for a value, or null: for checks outside a form (a dialog's single input). */
export function messageOf(
  rules: readonly Rule[],
  value: string,
  values: Values = {},
): string | null {
  return firstFailure(rules, value, values)?.message ?? null
}

export const FORM_MESSAGES = {
  mobileRequired: '请输入手机号',
  mobileDigits: '手机号只能包含数字',
  mobileInvalid: '请输入正确的 11 位手机号',
  codeRequired: '请输入验证码',
  codeDigits: '验证码只能包含数字',
  codeInvalid: '请输入 6 位数字验证码',
  passwordRequired: '请输入密码',
  passwordRule: '密码至少 8 位，需同时包含字母和数字',
  passwordTooLong: '密码最多 64 位',
  confirmRequired: '请再次输入新密码',
  passwordMismatch: '两次输入的密码不一致',
  passwordSameAsOld: '新密码不能与原密码相同',
  oldPasswordRequired: '请输入原密码',
  nicknameRequired: '请输入昵称',
  nicknameTooLong: '昵称最多 20 个字',
  nicknameUnsafe: NICKNAME_MESSAGES.unsafe,
  nicknameReserved: NICKNAME_MESSAGES.reserved,
  realNameRequired: '请输入真实姓名',
  realNameChinese: '姓名只能包含汉字（少数民族姓名可用 · 分隔）',
  realNameLength: '请输入 2–20 个汉字的真实姓名',
  idCardRequired: '请输入身份证号',
  idCardCharacters: '身份证号只能包含数字，末位可为 X',
  idCardLength: '请输入 18 位身份证号',
  idCardRegion: '身份证号不正确，请核对',
  idCardCheck: '身份证号校验位不正确，请核对后重新输入',
  idCardBirth: '身份证号中的出生日期不正确',
} as const

const M = FORM_MESSAGES

export const MOBILE_RULES: readonly Rule[] = [
  required(M.mobileRequired),
  rule(digits, M.mobileDigits),
  // 1, then 2-9, then digits: anything shorter than 11 on that path may still become a number.
  rule(mobile, M.mobileInvalid, (value) => value.length < 11 && /^1(?:[2-9]\d*)?$/.test(value)),
]

export const CODE_RULES: readonly Rule[] = [
  required(M.codeRequired),
  rule(digits, M.codeDigits),
  rule(
    (value) => code(value, 6),
    M.codeInvalid,
    (value) => /^\d{0,5}$/.test(value),
  ),
]

/** Login only asks for something typed: an old password may predate today's rule. */
export const LOGIN_PASSWORD_RULES: readonly Rule[] = [
  required(M.passwordRequired),
  rule((value) => rangeLength(value, [1, 64]), M.passwordTooLong),
]

/** New passwords: 8 to 64 characters with letters and digits (contract/common.ts PasswordSchema). */
export const NEW_PASSWORD_RULES: readonly Rule[] = [
  required(M.passwordRequired),
  rule((value) => rangeLength(value, [1, 64]), M.passwordTooLong),
  rule(
    (value) => rangeLength(value, [8, 64]) && /[A-Za-z]/.test(value) && /\d/.test(value),
    M.passwordRule,
  ),
]

/** The repeat of the password field `other`. */
export function confirmRules(other: string): readonly Rule[] {
  return [
    required(M.confirmRequired),
    rule(
      (value, values) => value === values[other],
      M.passwordMismatch,
      (value, values) => {
        const first = values[other] ?? ''
        return first.startsWith(value) && value.length < first.length
      },
    ),
  ]
}

/** A new value must differ from field `other` (when that one is filled). */
export function differentFrom(other: string, message: string): Rule {
  return rule((value, values) => !values[other] || value !== values[other], message)
}

export const NICKNAME_RULES: readonly Rule[] = [
  required(M.nicknameRequired),
  rule((value) => rangeLength(value.trim(), [1, 20]), M.nicknameTooLong),
  // What the server refuses too (contract/text.ts), said before the user taps save.
  rule((value) => displayText(value.trim()), M.nicknameUnsafe),
  rule((value) => !RESERVED_NICKNAMES.includes(value.trim()), M.nicknameReserved),
]

/** Real names: 2–20 Chinese characters, with · between the parts of a transliterated name. */
export const REAL_NAME_RULES: readonly Rule[] = [
  required(M.realNameRequired),
  rule(
    (value) => value.trim().split('·').every(chinese),
    M.realNameChinese,
    // 阿依古丽· is on its way to a name: only the last part may still be empty.
    (value) => {
      const parts = value.trim().split('·')
      return parts.every((part, i) => (part === '' ? i === parts.length - 1 : chinese(part)))
    },
  ),
  rule(
    (value) => rangeLength(value.trim(), [2, 20]),
    M.realNameLength,
    (value) => Array.from(value.trim()).length < 2,
  ),
]

/** Upper-cases a typed x and drops spaces, the way the card prints the number. */
export function normaliseIdCard(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase()
}

/** Resident ID numbers, telling a wrong check character from a wrong birth date. */
export const ID_CARD_RULES: readonly Rule[] = [
  required(M.idCardRequired),
  rule((value) => /^(\d{0,18}|\d{17}X)$/.test(value), M.idCardCharacters),
  rule(
    (value) => value.length === 18,
    M.idCardLength,
    (value) => value.length < 18,
  ),
  rule((value) => value[0] !== '0', M.idCardRegion),
  rule((value) => idCardCheckChar(value.slice(0, 17)) === value[17], M.idCardCheck),
  rule(idCard, M.idCardBirth),
]

export type PasswordStrength = 'weak' | 'medium' | 'strong'

export const STRENGTH_TEXT: Record<PasswordStrength, string> = {
  weak: '弱',
  medium: '中',
  strong: '强',
}

/**
 * A hint, not a rule: length and variety of character kinds. Anything that fails the rules is
 * weak; 12+ characters or three kinds is strong.
 */
export function passwordStrength(value: string): PasswordStrength {
  if (firstFailure(NEW_PASSWORD_RULES, value) !== null) return 'weak'
  const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length
  if (kinds >= 3 || (value.length >= 12 && kinds >= 2)) return 'strong'
  return 'medium'
}
