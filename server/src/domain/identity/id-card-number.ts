/**
 * Chinese resident ID numbers (GB 11643-1999): 6-digit region, 8-digit birth date, 3-digit sequence,
 * and a check character. The contract checks the shape; this checks what a typo breaks, on the server,
 * because the app's checks can be bypassed.
 */

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const
const CHECK_CHARS = '10X98765432'

/** Province-level codes in use (the first two digits); a number outside them is a typo. */
const PROVINCES = new Set([
  11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52,
  53, 54, 61, 62, 63, 64, 65, 71, 81, 82, 83,
])

export function idCardCheckChar(first17: string): string {
  let sum = 0
  for (let i = 0; i < 17; i += 1) sum += Number(first17[i]) * WEIGHTS[i]!
  return CHECK_CHARS[sum % 11]!
}

/**
 * Why the number cannot be a real ID number, in words for the user, or null when it can.
 * `today` is passed in so a birth date "in the future" is judged against the app's clock.
 */
export function idCardNumberProblem(value: string, today: Date): string | null {
  if (!/^\d{17}[\dX]$/.test(value)) return '请输入 18 位身份证号，末位 X 请大写'
  if (!PROVINCES.has(Number(value.slice(0, 2)))) return '身份证号的地区码不正确，请核对'
  const year = Number(value.slice(6, 10))
  const month = Number(value.slice(10, 12))
  const day = Number(value.slice(12, 14))
  const birth = new Date(Date.UTC(year, month - 1, day))
  const realDate =
    birth.getUTCFullYear() === year &&
    birth.getUTCMonth() === month - 1 &&
    birth.getUTCDate() === day
  if (!realDate || year < 1900) return '身份证号中的出生日期不正确，请核对'
  const todayUtc = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())
  if (birth.getTime() > todayUtc) return '身份证号中的出生日期不正确，请核对'
  if (idCardCheckChar(value.slice(0, 17)) !== value[17]) return '身份证号校验位不正确，请核对'
  return null
}

/** 110***********123X: region prefix and the last four, never the birth date. */
export function maskIdNumber(value: string): string {
  return `${value.slice(0, 3)}${'*'.repeat(Math.max(0, value.length - 7))}${value.slice(-4)}`
}
