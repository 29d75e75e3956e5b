import { timeFormat, timeFrom, toTimestamp, type TimeInput } from '../time'

// Expectations are built from local-time Dates, so the tests hold in any time zone (Jest's TZ
// setting does not reach the worker's clock).
const NOW = new Date(2024, 5, 15, 12, 0, 0) // 2024-06-15 12:00:00 local
const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

beforeEach(() => {
  jest.useFakeTimers({ now: NOW })
})

describe('toTimestamp', () => {
  const ms = new Date(2024, 0, 5, 8, 30, 15).getTime() // 1704414615000

  it.each<[string, TimeInput, number | undefined]>([
    ['milliseconds number', ms, ms],
    ['10-digit seconds number', ms / 1000, ms],
    ['10-digit seconds with a fraction', ms / 1000 + 0.5, ms + 500],
    ['milliseconds string', String(ms), ms],
    ['10-digit seconds string', String(ms / 1000), ms],
    ['9-digit number is milliseconds', 999_999_999, 999_999_999],
    ['11-digit number is milliseconds', 10_000_000_000, 10_000_000_000],
    ['zero is the epoch, not now', 0, 0],
    ['Date', new Date(ms), ms],
    ['local date-time', '2024-01-05 08:30:15', ms],
    ['local date-time with T', '2024-01-05T08:30:15', ms],
    ['slashes', '2024/01/05 08:30:15', ms],
    ['UTC ISO', '2024-01-05T00:30:15.000Z', Date.UTC(2024, 0, 5, 0, 30, 15)],
    ['offset ISO', '2024-01-05T08:30:15+08:00', Date.UTC(2024, 0, 5, 0, 30, 15)],
    ['negative offset', '2024-01-04T19:30:15-05:00', Date.UTC(2024, 0, 5, 0, 30, 15)],
    ['compact offset', '2024-01-05T03:30:15+0300', Date.UTC(2024, 0, 5, 0, 30, 15)],
    ['fraction of a second', '2024-01-05 08:30:15.25', ms + 250],
    ['date only is local midnight', '2024-01-05', new Date(2024, 0, 5).getTime()],
    ['null is now', null, NOW.getTime()],
    ['undefined is now', undefined, NOW.getTime()],
    ['empty string is now', '', NOW.getTime()],
    ['nonsense', 'yesterday', undefined],
    ['impossible date', '2023-02-29', undefined],
    ['invalid Date', new Date('nope'), undefined],
    ['NaN', NaN, undefined],
    ['Infinity', Infinity, undefined],
  ])('%s', (_label, input, expected) => {
    expect(toTimestamp(input)).toBe(expected)
  })
})

describe('timeFormat', () => {
  const t = new Date(2024, 0, 5, 8, 3, 9).getTime()

  it.each<[string, string]>([
    ['yyyy-mm-dd', '2024-01-05'],
    ['yyyy-mm-dd hh:MM:ss', '2024-01-05 08:03:09'],
    ['yyyy年mm月dd日', '2024年01月05日'],
    ['yyyy/m/d h:M:s', '2024/1/5 8:3:9'],
    ['mm-dd hh:MM', '01-05 08:03'],
    ['hh:MM', '08:03'],
    ['yy-mm-dd', '24-01-05'],
    ['yyyymmdd', '20240105'],
    ['', ''],
    ['今天', '今天'],
  ])('format %p gives %p', (format, expected) => {
    expect(timeFormat(t, format)).toBe(expected)
  })

  it('defaults to yyyy-mm-dd', () => {
    expect(timeFormat(t)).toBe('2024-01-05')
  })

  it('treats 10-digit numbers and strings as seconds', () => {
    const ms = new Date(2024, 0, 5, 8, 30, 15).getTime()
    expect(String(ms / 1000)).toHaveLength(10)
    expect(timeFormat(ms / 1000, 'yyyy-mm-dd hh:MM:ss')).toBe('2024-01-05 08:30:15')
    expect(timeFormat(String(ms / 1000), 'yyyy-mm-dd hh:MM:ss')).toBe('2024-01-05 08:30:15')
    expect(timeFormat(ms, 'yyyy-mm-dd hh:MM:ss')).toBe('2024-01-05 08:30:15')
  })

  it('reads server strings as local time unless they carry a zone', () => {
    expect(timeFormat('2024-01-05 23:59:59', 'yyyy-mm-dd hh:MM:ss')).toBe('2024-01-05 23:59:59')
    const utcMidnight = new Date(Date.UTC(2024, 0, 5))
    expect(timeFormat('2024-01-05T00:00:00Z', 'yyyy-mm-dd hh:MM')).toBe(
      timeFormat(utcMidnight, 'yyyy-mm-dd hh:MM'),
    )
    expect(timeFormat('2024-01-05', 'yyyy-mm-dd hh:MM')).toBe('2024-01-05 00:00')
  })

  it('formats now for null, undefined and empty string', () => {
    expect(timeFormat(null, 'yyyy-mm-dd hh:MM')).toBe('2024-06-15 12:00')
    expect(timeFormat(undefined)).toBe('2024-06-15')
    expect(timeFormat('')).toBe('2024-06-15')
  })

  it('gives an empty string for what is not a time', () => {
    expect(timeFormat('not a date')).toBe('')
    expect(timeFormat('2024-02-30')).toBe('')
    expect(timeFormat(new Date(NaN))).toBe('')
    expect(timeFormat(8.64e15 + 1)).toBe('')
  })

  it('pads the year of early dates', () => {
    const early = new Date(2000, 0, 1)
    early.setFullYear(1)
    expect(timeFormat(early, 'yyyy-mm-dd')).toBe('0001-01-01')
    expect(timeFormat('0099-12-31', 'yyyy-mm-dd')).toBe('0099-12-31')
  })
})

describe('timeFrom', () => {
  const ago = (ms: number): number => NOW.getTime() - ms

  it.each<[string, number, string]>([
    ['now', 0, '刚刚'],
    ['299 s', 299 * SECOND, '刚刚'],
    ['299.999 s', 300 * SECOND - 1, '刚刚'],
    ['300 s', 300 * SECOND, '5分钟前'],
    ['59 min 59 s', HOUR - SECOND, '59分钟前'],
    ['1 h', HOUR, '1小时前'],
    ['23 h 59 min', DAY - MINUTE, '23小时前'],
    ['1 day', DAY, '1天前'],
    ['29 days 23 h', 30 * DAY - HOUR, '29天前'],
    ['30 days', 30 * DAY, '2024-05-16'],
    ['400 days', 400 * DAY, '2023-05-12'],
    ['future by a minute', -MINUTE, '刚刚'],
    ['future by a year', -365 * DAY, '刚刚'],
  ])('%s ago -> %p', (_label, elapsed, expected) => {
    expect(timeFrom(ago(elapsed))).toBe(expected)
  })

  it.each<[string, number, string]>([
    ['29 days', 29 * DAY, '29天前'],
    ['30 days', 30 * DAY, '1个月前'],
    ['59 days', 59 * DAY, '1个月前'],
    ['60 days', 60 * DAY, '2个月前'],
    ['364 days', 364 * DAY, '12个月前'],
    ['365 days', 365 * DAY, '1年前'],
    ['729 days', 729 * DAY, '1年前'],
    ['730 days', 730 * DAY, '2年前'],
  ])('with format false, %s ago -> %p', (_label, elapsed, expected) => {
    expect(timeFrom(ago(elapsed), false)).toBe(expected)
  })

  it('uses the given format for older times', () => {
    expect(timeFrom(ago(45 * DAY), 'yyyy年mm月dd日 hh:MM')).toBe('2024年05月01日 12:00')
  })

  it('treats 10-digit timestamps as seconds', () => {
    const seconds = Math.floor(ago(2 * HOUR) / 1000)
    expect(String(seconds)).toHaveLength(10)
    expect(timeFrom(seconds)).toBe('2小时前')
    expect(timeFrom(String(seconds))).toBe('2小时前')
  })

  it('accepts server date strings and Dates', () => {
    expect(timeFrom('2024-06-15 09:00:00')).toBe('3小时前')
    expect(timeFrom(new Date(ago(10 * MINUTE)).toISOString())).toBe('10分钟前')
    expect(timeFrom(new Date(2024, 5, 12, 12))).toBe('3天前')
  })

  it('is 刚刚 for now, and empty for what is not a time', () => {
    expect(timeFrom()).toBe('刚刚')
    expect(timeFrom(null)).toBe('刚刚')
    expect(timeFrom('nonsense')).toBe('')
    expect(timeFrom('nonsense', false)).toBe('')
  })

  it('follows the clock', () => {
    const posted = NOW.getTime()
    expect(timeFrom(posted)).toBe('刚刚')
    jest.advanceTimersByTime(5 * MINUTE)
    expect(timeFrom(posted)).toBe('5分钟前')
    jest.setSystemTime(posted + 3 * DAY)
    expect(timeFrom(posted)).toBe('3天前')
  })

  it('does not read an old millisecond date back as seconds when formatting it', () => {
    // 1970-01-13 is a 10-digit millisecond value; formatted as seconds it would land in 2008.
    const early = new Date(1970, 0, 13, 8).getTime()
    expect(String(early)).toHaveLength(10)
    expect(timeFrom(new Date(early))).toBe('1970-01-13')
  })
})
