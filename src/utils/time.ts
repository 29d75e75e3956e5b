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
 *
 * Parsing and formatting go through dayjs (zh-cn locale, customParseFormat in strict mode). The
 * shapes above are first recognised by `parseDateParts` (shared with the validators), because
 * dayjs's strict parser cannot express "one or two digits" or a nine-digit fraction, and its loose
 * one falls back to `new Date(text)`; dayjs then reads the normalised string strictly.
 */
import dayjs, { type Dayjs } from 'dayjs'
import customParseFormat from 'dayjs/plugin/customParseFormat'
import 'dayjs/locale/zh-cn'
import { parseDateParts, type LocalDateParts } from './calendar'

dayjs.extend(customParseFormat)
dayjs.locale('zh-cn')

/** The app's dayjs: zh-cn (星期五, 1月), with customParseFormat. Later features format through it. */
export { dayjs }

export type TimeInput = number | string | Date | null | undefined

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
/** 2000 Gregorian years are exactly 5 cycles of 146097 days, so the shift keeps the calendar date. */
const SHIFT_YEARS = 2000
const SHIFT_MS = 5 * 146097 * DAY

/** Milliseconds since the epoch, or undefined when the input is not a time. */
export function toTimestamp(input: TimeInput): number | undefined {
  if (input === null || input === undefined || input === '') return dayjs().valueOf()
  if (input instanceof Date) {
    const time = dayjs(input)
    return time.isValid() ? time.valueOf() : undefined
  }
  if (typeof input === 'number') return Number.isFinite(input) ? fromNumber(input) : undefined
  if (typeof input !== 'string') return undefined
  if (/^\d+$/.test(input)) return fromNumber(Number(input))
  const parts = parseDateParts(input)
  return parts === undefined ? undefined : parseParts(parts)
}

function fromNumber(value: number): number {
  const integerDigits = String(Math.trunc(Math.abs(value))).length
  return integerDigits === 10 ? value * 1000 : value
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0')

/**
 * Reads recognised parts with dayjs's strict parser. Years 0-99 are read 2000 years later and moved
 * back, because JavaScript's Date (under every parser) takes them for 1900-1999.
 */
function parseParts(parts: LocalDateParts): number | undefined {
  const shifted = parts.year < 100
  const year = shifted ? parts.year + SHIFT_YEARS : parts.year
  const zone = parts.zone === undefined ? '' : parts.zone === 'Z' ? '+00:00' : parts.zone
  const text =
    `${pad(year, 4)}-${pad(parts.month)}-${pad(parts.day)} ` +
    `${pad(parts.hour)}:${pad(parts.minute)}:${pad(parts.second)}.${pad(parts.millisecond, 3)}${zone}`
  const format = `YYYY-MM-DD HH:mm:ss.SSS${zone === '' ? '' : zone.includes(':') ? 'Z' : 'ZZ'}`
  // Strict mode re-formats and compares, which a zoned time cannot pass in another zone; the parts
  // were already checked, so a zoned time is read loosely.
  const parsed = dayjs(text, format, zone === '')
  if (!parsed.isValid()) return undefined
  if (!shifted) return parsed.valueOf()
  // Local times keep their wall clock (the zone of year 99 may differ from today's); zoned ones
  // are an exact instant, so they move by the exact length of 2000 years.
  return zone === '' ? parsed.subtract(SHIFT_YEARS, 'year').valueOf() : parsed.valueOf() - SHIFT_MS
}

const TOKEN_RE = /y+|m+|d+|h+|M+|s+/g

/** uview's tokens as dayjs's; other run lengths (`yyy`) are padded by hand below. */
const DAYJS_TOKENS: Record<string, string> = {
  yyyy: 'YYYY',
  mm: 'MM',
  m: 'M',
  dd: 'DD',
  d: 'D',
  hh: 'HH',
  h: 'H',
  MM: 'mm',
  M: 'm',
  ss: 'ss',
  s: 's',
}

function fieldOf(time: Dayjs, letter: string): number {
  switch (letter) {
    case 'y':
      return time.year()
    case 'm':
      return time.month() + 1
    case 'd':
      return time.date()
    case 'h':
      return time.hour()
    case 'M':
      return time.minute()
    default:
      return time.second()
  }
}

/**
 * Formats a time with uview's tokens: `yyyy` year, `mm` month, `dd` day, `hh` hour (24-hour),
 * `MM` minute, `ss` second. A doubled token is zero-padded, a single one is not (`m/d` gives
 * `1/5`); `yy` gives the last two digits of the year. Everything else is copied as is, so
 * `yyyy年mm月dd日 hh:MM` works.
 */
export function timeFormat(timestamp?: TimeInput, format = 'yyyy-mm-dd'): string {
  const ms = toTimestamp(timestamp)
  if (ms === undefined) return ''
  const time = dayjs(ms)
  if (!time.isValid()) return ''
  return format.replace(TOKEN_RE, (token) => {
    const dayjsToken = DAYJS_TOKENS[token]
    if (dayjsToken) return time.format(dayjsToken)
    const value = String(fieldOf(time, token[0]))
    if (token[0] === 'y' && token.length === 2) return value.slice(-2).padStart(2, '0')
    return token.length === 1 ? value : value.padStart(token.length, '0')
  })
}

/**
 * Relative time against now: under 5 minutes 刚刚, then N分钟前, N小时前, N天前 (under 30 days),
 * then the date in `format`, or with `format === false` N个月前 (30-day months, under 365 days) and
 * N年前 (365-day years). Times in the future (a server clock ahead of the phone's) show 刚刚 rather
 * than a negative count. Invalid input gives ''.
 *
 * dayjs's relativeTime plugin is not used: its zh-cn texts have spaces (5 分钟前), its thresholds
 * round (44 minutes is 1 小时前) and its months are calendar months, while SPEC section 9 counts.
 */
export function timeFrom(timestamp?: TimeInput, format: string | false = 'yyyy-mm-dd'): string {
  const ms = toTimestamp(timestamp)
  if (ms === undefined) return ''
  const time = dayjs(ms)
  const elapsed = dayjs().diff(time)
  if (elapsed < 300 * SECOND) return '刚刚'
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}分钟前`
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}小时前`
  if (elapsed < 30 * DAY) return `${Math.floor(elapsed / DAY)}天前`
  // A Date, so a millisecond value that happens to have 10 digits is not re-read as seconds.
  if (format !== false) return timeFormat(time.toDate(), format)
  if (elapsed < 365 * DAY) return `${Math.floor(elapsed / (30 * DAY))}个月前`
  return `${Math.floor(elapsed / (365 * DAY))}年前`
}
