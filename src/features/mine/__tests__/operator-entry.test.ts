import { visibleGroups } from '../entries'

const keys = (role: 'patient' | 'expert' | 'operator') =>
  visibleGroups(role, null)
    .flat()
    .map((entry) => entry.key)

describe('运营后台 on Mine', () => {
  it('shows to an operator in H5, to nobody else', () => {
    expect(keys('operator')).toContain('operator')
    expect(keys('patient')).not.toContain('operator')
    expect(keys('expert')).not.toContain('operator')
  })

  it('never shows in the mini-program, which has no operator pages', () => {
    const before = process.env.TARO_ENV
    process.env.TARO_ENV = 'weapp'
    try {
      expect(keys('operator')).not.toContain('operator')
    } finally {
      process.env.TARO_ENV = before
    }
  })
})
