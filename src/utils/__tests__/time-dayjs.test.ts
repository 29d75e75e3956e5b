import { dayjs, timeFormat, toTimestamp } from '../time'

describe('time through dayjs', () => {
  it('speaks zh-cn', () => {
    expect(dayjs(new Date(2024, 0, 5)).format('dddd M月D日')).toBe('星期五 1月5日')
  })

  it('reads years before 100 as themselves, with and without a zone', () => {
    const local = new Date(2000, 11, 31, 8)
    local.setFullYear(99)
    expect(toTimestamp('0099-12-31 08:00')).toBe(local.getTime())
    const utc = new Date(Date.UTC(2000, 1, 29, 12))
    utc.setUTCFullYear(96)
    expect(toTimestamp('0096-02-29T12:00:00Z')).toBe(utc.getTime())
    expect(toTimestamp('0097-02-29')).toBeUndefined()
  })

  it('keeps the milliseconds of a nine-digit fraction and honours +hh:mm and +hhmm', () => {
    expect(toTimestamp('2024-01-05T00:30:15.123456789Z')).toBe(Date.UTC(2024, 0, 5, 0, 30, 15, 123))
    expect(toTimestamp('2024-01-05T08:30:15.5+08:00')).toBe(Date.UTC(2024, 0, 5, 0, 30, 15, 500))
    expect(toTimestamp('2024-01-05T05:30:15+0500')).toBe(Date.UTC(2024, 0, 5, 0, 30, 15))
  })

  it('pads odd token runs as before (yyy, mmm) and copies other text', () => {
    const t = new Date(2024, 0, 5, 8, 3, 9)
    expect(timeFormat(t, 'yyy|mmm|[x]')).toBe('2024|001|[x]')
    expect(timeFormat('2024年1月5日', 'yyyy-mm-dd')).toBe('2024-01-05')
  })
})
