import { idCardCheckChar } from '@/utils/validators'
import {
  ID_CARD_CHECK_MESSAGE,
  idCardError,
  mobileError,
  nicknameError,
  normaliseIdCard,
  realNameError,
  smsCodeError,
} from '../validation'

describe('profile field rules', () => {
  it('waits for a phone number to be complete unless its start is already wrong', () => {
    expect(mobileError('138', false)).toBeNull()
    expect(mobileError('138', true)).toBe('请输入正确的 11 位手机号')
    expect(mobileError('10', false)).toBe('请输入正确的 11 位手机号')
    expect(mobileError('13800000001', false)).toBeNull()
    expect(mobileError('12a', false)).toBe('手机号只能包含数字')
    expect(mobileError('', true)).toBe('请输入手机号')
  })

  it('checks SMS codes and nicknames', () => {
    expect(smsCodeError('123', false)).toBeNull()
    expect(smsCodeError('123', true)).toBe('请输入 6 位数字验证码')
    expect(smsCodeError('123456', true)).toBeNull()
    expect(nicknameError('  ')).toBe('昵称不能为空')
    expect(nicknameError('一'.repeat(21))).toBe('昵称最多 20 个字')
    expect(nicknameError('小明')).toBeNull()
  })

  it('accepts Chinese names with the name dot', () => {
    expect(realNameError('张三', true)).toBeNull()
    expect(realNameError('阿依古丽·买买提', true)).toBeNull()
    expect(realNameError('阿依古丽·', false)).toBeNull()
    expect(realNameError('Zhang', false)).toMatch(/汉字/)
    expect(realNameError('张', true)).toMatch(/2–20/)
  })

  it('tells a wrong check digit from a wrong birth date', () => {
    const first17 = '11010519491231002'
    const valid = `${first17}${idCardCheckChar(first17)}`
    expect(idCardError(valid, true)).toBeNull()
    const wrong = `${first17}${valid.endsWith('1') ? '2' : '1'}`
    expect(idCardError(wrong, false)).toBe(ID_CARD_CHECK_MESSAGE)
    const badDate = '11010519491331' + '0021'
    const fixed = badDate.slice(0, 17) + idCardCheckChar(badDate.slice(0, 17))
    expect(idCardError(fixed, false)).toBe('身份证号中的出生日期不正确')
    expect(idCardError('1101', false)).toBeNull()
    expect(idCardError('1101', true)).toBe('请输入 18 位身份证号')
    expect(idCardError('11X', false)).toMatch(/只能包含数字/)
    expect(normaliseIdCard(' 11010 5x ')).toBe('110105X')
  })
})
