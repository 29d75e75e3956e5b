/**
 * Generic validators of SPEC section 5. Every validator takes any value, never throws and returns a
 * boolean. Strings are checked as given (no trimming); finite numbers are checked as their decimal
 * text; anything else is invalid.
 *
 * An empty string is invalid for every validator but one: whether a field may be left empty is the
 * form's decision ("required"), so a form skips the validators of an empty optional field instead of
 * each validator guessing. The exception is `rangeLength`, which counts characters as uView 1.6.3
 * (the spec's UI library) does: '' has 0 of them, so it is within [0, n] and outside [1, n].
 */
import { isSafeDisplayText } from '@contract/text'
import { isRealDate, parseDateParts, todayAsNumber } from './calendar'

function toText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

function matches(re: RegExp, value: unknown): boolean {
  const text = toText(value)
  return text !== undefined && re.test(text)
}

// Local part: dot-separated atoms (no leading, trailing or doubled dots). Domain: at least two
// labels of letters, digits and inner hyphens, ending in an alphabetic top-level domain.
const EMAIL_RE =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/

export function email(value: unknown): boolean {
  const text = toText(value)
  // 254 is the longest address SMTP can carry; 64 the longest local part.
  return text !== undefined && text.length <= 254 && EMAIL_RE.test(text) && text.indexOf('@') <= 64
}

/** Mainland mobile: 1, then 2-9, then 9 more digits. */
export function mobile(value: unknown): boolean {
  return matches(/^1[2-9]\d{9}$/, value)
}

const IPV4_OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'
// Hosts: localhost, dotted IPv4, bracketed IPv6, or a domain whose labels may be Chinese
// (例子.中国) and whose top-level label is not numeric.
const URL_RE = new RegExp(
  '^https?://' +
    '(?:' +
    'localhost' +
    `|(?:${IPV4_OCTET}\\.){3}${IPV4_OCTET}` +
    '|\\[[0-9A-Fa-f:.]+\\]' +
    '|(?:[A-Za-z0-9\\u00a1-\\uffff](?:[A-Za-z0-9\\u00a1-\\uffff-]{0,61}[A-Za-z0-9\\u00a1-\\uffff])?\\.)+' +
    '[A-Za-z\\u00a1-\\uffff]{2,63}' +
    ')' +
    '(?::(\\d{1,5}))?' +
    '(?:[/?#][^\\s]*)?$',
  'i',
)

/** Absolute http or https address. */
export function url(value: unknown): boolean {
  const text = toText(value)
  if (text === undefined) return false
  const m = URL_RE.exec(text)
  return m !== null && (m[1] === undefined || Number(m[1]) <= 65535)
}

/**
 * A real calendar date, optionally with a time: `2024-01-05`, `2024/1/5`, `2024.01.05`,
 * `2024年1月5日`, `2024-01-05 08:30`, `2024-01-05T08:30:00.000Z`, `2024-01-05T08:30:00+08:00`.
 * A valid Date object is accepted too. Unlike `new Date(text)`, it rejects 2023-02-29.
 */
export function date(value: unknown): boolean {
  if (value instanceof Date) return !Number.isNaN(value.getTime())
  const text = toText(value)
  return text !== undefined && parseDateParts(text) !== undefined
}

const DATE_ISO_RE = /^(\d{4})([-/])(\d{1,2})\2(\d{1,2})$/

/**
 * A real calendar date written year first, with `-` or `/` used consistently: `2024-01-05`,
 * `2024/1/5`. Month and day may drop the leading zero, as the uview rule this replaces allowed.
 */
export function dateISO(value: unknown): boolean {
  const text = toText(value)
  const m = text === undefined ? null : DATE_ISO_RE.exec(text)
  return m !== null && isRealDate(Number(m[1]), Number(m[3]), Number(m[4]))
}

/** A decimal number, optionally signed: `12`, `-3.5`, `+0.25`, `.5`. No exponent, no commas. */
export function number(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value)
  return matches(/^[+-]?(?:\d+|\d*\.\d+)$/, value)
}

/** Only the digits 0-9. */
export function digits(value: unknown): boolean {
  return matches(/^\d+$/, value)
}

const ID_CARD_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
const ID_CARD_CHECK_CHARS = '10X98765432'

/**
 * GB 11643-1999 check character for the first 17 digits of a resident ID number. Exported for
 * tests and for forms that want to say which character was expected; undefined if the input is
 * not 17 digits.
 */
export function idCardCheckChar(first17: string): string | undefined {
  if (!/^\d{17}$/.test(first17)) return undefined
  let sum = 0
  for (let i = 0; i < 17; i += 1) sum += Number(first17[i]) * ID_CARD_WEIGHTS[i]
  return ID_CARD_CHECK_CHARS[sum % 11]
}

/**
 * Chinese resident ID card (18 characters): region code not starting with 0, a real birth date from
 * 1900 up to today (local time), and the GB 11643 check character. Only an upper-case X is
 * accepted, because that is what the card prints and what other systems match against.
 */
export function idCard(value: unknown): boolean {
  if (typeof value !== 'string' || !/^[1-9]\d{16}[\dX]$/.test(value)) return false
  const year = Number(value.slice(6, 10))
  const month = Number(value.slice(10, 12))
  const day = Number(value.slice(12, 14))
  if (year < 1900 || !isRealDate(year, month, day)) return false
  if (year * 10000 + month * 100 + day > todayAsNumber()) return false
  return idCardCheckChar(value.slice(0, 17)) === value[17]
}

const PROVINCES = '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼'
// Plate serial characters never use I or O (they read as 1 and 0).
const SERIAL = 'A-HJ-NP-Z0-9'
// Ordinary plates: province, issuing-office letter, five serial characters, the last of which may
// be a usage character (trailer, coach, police, Hong Kong, Macao, consulate).
const ORDINARY_PLATE_RE = new RegExp(
  `^[${PROVINCES}使领][A-Z][${SERIAL}]{4}[${SERIAL}挂学警港澳领]$`,
)
// New-energy plates (8 characters), as uView 1.6.3 (the spec's UI library) checks them: the energy
// letter D (electric) or F (hybrid) has its own place. Small vehicles: D or F, then a letter or
// digit, then four digits; large vehicles: five digits, then D or F. So 京AA12345 is no plate.
const NEW_ENERGY_PLATE_RE = new RegExp(`^[${PROVINCES}][A-Z](?:[DF][${SERIAL}]\\d{4}|\\d{5}[DF])$`)

/** Chinese car plate, ordinary (7 characters) or new-energy (8 characters), no separator. */
export function carNo(value: unknown): boolean {
  if (typeof value !== 'string') return false
  if (value.length === 7) return ORDINARY_PLATE_RE.test(value)
  if (value.length === 8) return NEW_ENERGY_PLATE_RE.test(value)
  return false
}

/** Non-negative amount with up to 2 decimals: `0`, `12`, `12.5`, `0.01`. No sign, no commas. */
export function amount(value: unknown): boolean {
  return matches(/^(?:0|[1-9]\d*)(?:\.\d{1,2})?$/, value)
}

// CJK Unified Ideographs with extensions A to G and the compatibility blocks, so rare characters
// in people's names (𠮷, 䶮) are accepted. Punctuation and the name dot · are not characters.
const CHINESE_RE =
  /^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2ebef}\u{2f800}-\u{2fa1f}\u{30000}-\u{3134f}]+$/u

/** Chinese characters only. */
export function chinese(value: unknown): boolean {
  return typeof value === 'string' && CHINESE_RE.test(value)
}

/** ASCII letters only. */
export function letter(value: unknown): boolean {
  return typeof value === 'string' && /^[A-Za-z]+$/.test(value)
}

/** ASCII letters and digits only. */
export function enOrNum(value: unknown): boolean {
  return matches(/^[A-Za-z0-9]+$/, value)
}

function isBounds(bounds: unknown): bounds is readonly [number, number] {
  return (
    Array.isArray(bounds) &&
    bounds.length === 2 &&
    typeof bounds[0] === 'number' &&
    typeof bounds[1] === 'number' &&
    !Number.isNaN(bounds[0]) &&
    !Number.isNaN(bounds[1]) &&
    bounds[0] <= bounds[1]
  )
}

/**
 * A number (or numeric string, see `number`) with min <= value <= max. Bounds may be -Infinity or
 * Infinity for an open end; bounds with min > max match nothing.
 */
export function range(value: unknown, bounds: readonly [number, number]): boolean {
  if (!isBounds(bounds) || !number(value)) return false
  const n = Number(value)
  return n >= bounds[0] && n <= bounds[1]
}

/**
 * A string whose length is within [min, max], counted in characters as a person sees them
 * (code points: 𠮷 counts as 1, not 2). The empty string has length 0, as in uView 1.6.3.
 */
export function rangeLength(value: unknown, bounds: readonly [number, number]): boolean {
  const text = value === '' ? '' : toText(value)
  if (text === undefined || !isBounds(bounds)) return false
  const length = Array.from(text).length
  return length >= bounds[0] && length <= bounds[1]
}

/**
 * Landline: area code of 3 or 4 digits starting with 0 (010, 0755), a dash, 7 or 8 digits, and an
 * optional extension of 1 to 6 digits after another dash: `0755-12345678-123`.
 */
export function landline(value: unknown): boolean {
  return matches(/^0\d{2,3}-\d{7,8}(?:-\d{1,6})?$/, value)
}

/** Verification code: exactly `len` digits (default 6). A len below 1 or fractional matches nothing. */
export function code(value: unknown, len = 6): boolean {
  if (!Number.isInteger(len) || len < 1) return false
  return matches(new RegExp(`^\\d{${len}}$`), value)
}

/**
 * Text other people will see, shown as it reads: no control characters, no invisible format
 * characters (bidi overrides, zero-width spaces) and no half characters; line breaks and tabs only
 * when `multiline`. The same rule as the server's (contract/text.ts).
 */
export function displayText(value: unknown, multiline = false): boolean {
  const text = toText(value)
  return text !== undefined && isSafeDisplayText(text, { multiline })
}
