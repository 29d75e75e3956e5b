/**
 * Date display of SPEC section 9, compatible with uview's `timeFormat` and `timeFrom`.
 *
 * Input rules shared by both functions:
 * - null, undefined or '' mean now;
 * - a number or an all-digit string is a timestamp, in seconds when its integer part has exactly
 *   10 digits (what many servers send), otherwise in milliseconds;
 * - other strings are parsed without relying on `new Date(text)`, which iOS (and so WeChat on iOS)
 *   cannot do for `2024-01-05 08:30:00`: `YYYY-MM-DD`, `YYYY/MM/DD` and `YYYY.MM.DD` with an
 *   optional `HH:mm[:ss[.SSS]]` are local time, and a trailing `Z` or `+08:00` is honoured;
 * - a Date is used as is.
 * Anything else (or a date that does not exist) formats as '' rather than 'NaN-NaN-NaN'.
 */
import { parseDateParts, partsToTime } from './calendar'

export type TimeInput = number | string | Date | null | undefined

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** Milliseconds since the epoch, or undefined when the input is not a time. */
export function toTimestamp(input: TimeInput): number | undefined {
  if (input === null || input === undefined || input === '') return Date.now()
  if (input instanceof Date) {
    const time = input.getTime()
    return Number.isNaN(time) ? undefined : time
  }
  if (typeof input === 'number') return Number.isFinite(input) ? fromNumber(input) : undefined
  if (typeof input !== 'string') return undefined
  if (/^\d+$/.test(input)) return fromNumber(Number(input))
  const parts = parseDateParts(input)
  return parts === undefined ? undefined : partsToTime(parts)
}

function fromNumber(value: number): number {
  const integerDigits = String(Math.trunc(Math.abs(value))).length
  return integerDigits === 10 ? value * 1000 : value
}

const TOKEN_RE = /y+|m+|d+|h+|M+|s+/g

/**
 * Formats a time with uview's tokens: `yyyy` year, `mm` month, `dd` day, `hh` hour (24-hour),
 * `MM` minute, `ss` second. A doubled token is zero-padded, a single one is not (`m/d` gives
 * `1/5`); `yy` gives the last two digits of the year. Everything else is copied as is, so
 * `yyyy年mm月dd日 hh:MM` works.
 */
export function timeFormat(timestamp?: TimeInput, format = 'yyyy-mm-dd'): string {
  const time = toTimestamp(timestamp)
  if (time === undefined) return ''
  const d = new Date(time)
  if (Number.isNaN(d.getTime())) return ''
  const fields: Record<string, number> = {
    y: d.getFullYear(),
    m: d.getMonth() + 1,
    d: d.getDate(),
    h: d.getHours(),
    M: d.getMinutes(),
    s: d.getSeconds(),
  }
  return format.replace(TOKEN_RE, (token) => {
    const value = String(fields[token[0]])
    if (token[0] === 'y' && token.length === 2) return value.slice(-2).padStart(2, '0')
    return token.length === 1 ? value : value.padStart(token.length, '0')
  })
}

/**
 * Relative time against `Date.now()`: under 5 minutes 刚刚, then N分钟前, N小时前, N天前 (under 30
 * days), then the date in `format`, or with `format === false` N个月前 (30-day months, under 365
 * days) and N年前 (365-day years). Times in the future (a server clock ahead of the phone's) show
 * 刚刚 rather than a negative count. Invalid input gives ''.
 */
export function timeFrom(timestamp?: TimeInput, format: string | false = 'yyyy-mm-dd'): string {
  const time = toTimestamp(timestamp)
  if (time === undefined) return ''
  const elapsed = Date.now() - time
  if (elapsed < 300 * SECOND) return '刚刚'
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}分钟前`
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}小时前`
  if (elapsed < 30 * DAY) return `${Math.floor(elapsed / DAY)}天前`
  // A Date, so a millisecond value that happens to have 10 digits is not re-read as seconds.
  if (format !== false) return timeFormat(new Date(time), format)
  if (elapsed < 365 * DAY) return `${Math.floor(elapsed / (30 * DAY))}个月前`
  return `${Math.floor(elapsed / (365 * DAY))}年前`
}
