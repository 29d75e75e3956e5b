import { yuanInput, yuanText, yuanToFen } from '../money'

describe('money in fen', () => {
  it('shows whole yuan without decimals and others with two', () => {
    expect(yuanText(3000)).toBe('¥30')
    expect(yuanText(3050)).toBe('¥30.50')
    expect(yuanText(1)).toBe('¥0.01')
    expect(yuanText(300_000)).toBe('¥3000')
    expect(yuanText(0)).toBe('¥0')
    expect(yuanInput(3050)).toBe('30.50')
  })

  it('turns typed yuan into exact integer fen', () => {
    expect(yuanToFen('30.5')).toBe(3050)
    expect(yuanToFen('30.50')).toBe(3050)
    expect(yuanToFen('30')).toBe(3000)
    expect(yuanToFen(' 0.07 ')).toBe(7)
    expect(yuanToFen('19.99')).toBe(1999)
    expect(yuanToFen('0')).toBe(0)
  })

  it('refuses what is not an amount rather than rounding it', () => {
    for (const bad of [
      '',
      '30.505',
      '-1',
      '+3',
      '1,000',
      '03',
      '3.',
      '.5',
      '1e3',
      '30 .5',
      'abc',
    ]) {
      expect([bad, yuanToFen(bad)]).toEqual([bad, null])
    }
  })
})
