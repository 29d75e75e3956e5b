/** Calendar helpers shared by the validators and the time formatter (internal to utils). */

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

/** `new Date(2023, 1, 29)` silently rolls over to 1 March, so real dates are checked by hand. */
export function isRealDate(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  )
}

export interface ClockTime {
  hour: number
  minute: number
  second: number
  millisecond: number
}

export interface LocalDateParts extends ClockTime {
  year: number
  month: number
  day: number
  /** The zone as written (`Z`, `+08:00`, `+0800`), or undefined for local time. */
  zone?: string
}

// Date, then an optional time after a space or T, then an optional zone. One separator is used in
// the whole date (`2024-01-05`, `2024/1/5`, `2024.01.05`), as the backreference enforces.
const DATE_TIME_RE =
  /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/
const CHINESE_DATE_RE = /^(\d{4})年(\d{1,2})月(\d{1,2})日$/

/**
 * Parses the date strings people and servers actually send. Returns undefined for anything else,
 * including dates that do not exist (2023-02-29) and out-of-range clock fields (24:00, 10:60).
 */
export function parseDateParts(text: string): LocalDateParts | undefined {
  const chinese = CHINESE_DATE_RE.exec(text)
  if (chinese) {
    const [year, month, day] = [chinese[1], chinese[2], chinese[3]].map(Number)
    if (!isRealDate(year, month, day)) return undefined
    return { year, month, day, hour: 0, minute: 0, second: 0, millisecond: 0 }
  }
  const m = DATE_TIME_RE.exec(text)
  if (!m) return undefined
  const year = Number(m[1])
  const month = Number(m[3])
  const day = Number(m[4])
  const hasTime = m[5] !== undefined
  // A zone only makes sense after a time (`2024-01-05Z` is not a format anyone sends).
  if (!hasTime && m[9] !== undefined) return undefined
  const hour = hasTime ? Number(m[5]) : 0
  const minute = hasTime ? Number(m[6]) : 0
  const second = m[7] !== undefined ? Number(m[7]) : 0
  const millisecond = m[8] !== undefined ? Number(m[8].slice(0, 3).padEnd(3, '0')) : 0
  if (!isRealDate(year, month, day)) return undefined
  if (hour > 23 || minute > 59 || second > 59) return undefined
  if (m[9] !== undefined && !isValidZone(m[9])) return undefined
  return { year, month, day, hour, minute, second, millisecond, zone: m[9] }
}

function isValidZone(zone: string): boolean {
  if (zone === 'Z') return true
  const digits = zone.replace(':', '').slice(1)
  return Number(digits.slice(0, 2)) <= 23 && Number(digits.slice(2)) <= 59
}

/** Today's local date as a comparable number, e.g. 20240105. */
export function todayAsNumber(now: Date = new Date()): number {
  return now.getFullYear() * 10000 + (now.getMonth() + 1) * 100 + now.getDate()
}
