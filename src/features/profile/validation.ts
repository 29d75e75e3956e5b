import { chinese, code, idCard, idCardCheckChar, mobile, rangeLength } from '@/utils/validators'

/**
 * Field rules of the profile forms, built on the shared validators of SPEC section 5. Each answers
 * the message to show under the field, or null. `final` is false while the person is typing: a
 * value that can still become valid (the first digits of a phone number) is not an error yet.
 */

export function nicknameError(value: string): string | null {
  const text = value.trim()
  if (text === '') return '昵称不能为空'
  return rangeLength(text, [1, 20]) ? null : '昵称最多 20 个字'
}

export function mobileError(value: string, final: boolean): string | null {
  if (value === '') return final ? '请输入手机号' : null
  if (!/^\d+$/.test(value)) return '手机号只能包含数字'
  if (value.length > 11) return '请输入正确的 11 位手机号'
  if (value.length === 11) return mobile(value) ? null : '请输入正确的 11 位手机号'
  // A prefix that no mobile number starts with is wrong already.
  if (!/^1[2-9]?$/.test(value.slice(0, 2))) return '请输入正确的 11 位手机号'
  return final ? '请输入正确的 11 位手机号' : null
}

export function smsCodeError(value: string, final: boolean): string | null {
  if (value === '') return final ? '请输入验证码' : null
  if (!/^\d+$/.test(value)) return '验证码只能包含数字'
  if (value.length > 6 || (final && !code(value, 6))) return '请输入 6 位数字验证码'
  return null
}

/** Real names: 2–20 Chinese characters, with · between the parts of a transliterated name. */
export function realNameError(value: string, final: boolean): string | null {
  const text = value.trim()
  if (text === '') return final ? '请输入真实姓名' : null
  const parts = text.split('·')
  if (parts.some((part) => (part === '' ? final : !chinese(part)))) {
    return '姓名只能包含汉字（少数民族姓名可用 · 分隔）'
  }
  if (!rangeLength(text, [2, 20]))
    return final || text.length > 20 ? '请输入 2–20 个汉字的真实姓名' : null
  return null
}

/** Upper-cases a typed x, the way the card prints it. */
export function normaliseIdCard(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase()
}

export const ID_CARD_CHECK_MESSAGE = '身份证号校验位不正确，请核对后重新输入'

export function idCardError(value: string, final: boolean): string | null {
  if (value === '') return final ? '请输入身份证号' : null
  if (!/^(\d{0,18}|\d{17}X)$/.test(value)) return '身份证号只能包含数字，末位可为 X'
  if (value.length < 18) return final ? '请输入 18 位身份证号' : null
  if (idCard(value)) return null
  if (value[0] === '0') return '身份证号不正确，请核对'
  if (idCardCheckChar(value.slice(0, 17)) !== value[17]) return ID_CARD_CHECK_MESSAGE
  return '身份证号中的出生日期不正确'
}
