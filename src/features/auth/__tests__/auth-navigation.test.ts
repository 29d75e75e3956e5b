import Taro from '@tarojs/taro'
import { goAfterLogin, readRedirect, redirectParam } from '../auth-navigation'

describe('redirect after login', () => {
  it('reads an encoded in-app path, once or twice encoded', () => {
    const target = '/pages/personalReport/index?tab=2'
    expect(readRedirect(target)).toBe(target)
    expect(readRedirect(encodeURIComponent(target))).toBe(target)
    expect(readRedirect(encodeURIComponent(encodeURIComponent(target)))).toBe(target)
  })

  it('ignores outside addresses, unknown pages and the account forms themselves', () => {
    expect(readRedirect(undefined)).toBeNull()
    expect(readRedirect('https://evil.example.com/')).toBeNull()
    expect(readRedirect('//evil.example.com/pages/user/user')).toBeNull()
    expect(readRedirect('/pages/nope/nope')).toBeNull()
    expect(readRedirect('/pages/login/login?autoLogin=1')).toBeNull()
    expect(readRedirect('/pages/reg/reg')).toBeNull()
  })

  it('passes the way back on only when there is one', () => {
    expect(redirectParam('/pages/pwd/pwd')).toEqual({ redirect: '/pages/pwd/pwd' })
    expect(redirectParam(null)).toEqual({})
  })

  it('switches to a tab, replaces login with any other page, else opens 我的', async () => {
    const switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' })
    const redirectTo = jest.spyOn(Taro, 'redirectTo').mockResolvedValue({ errMsg: 'ok' })
    await goAfterLogin('/pages/main/main')
    expect(switchTab).toHaveBeenLastCalledWith({ url: '/pages/main/main' })
    await goAfterLogin('/pages/pwd/pwd')
    expect(redirectTo).toHaveBeenLastCalledWith({ url: '/pages/pwd/pwd' })
    await goAfterLogin(null)
    expect(switchTab).toHaveBeenLastCalledWith({ url: '/pages/user/user' })
  })

  it('falls back to 我的 when the page cannot be opened', async () => {
    const switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' })
    jest.spyOn(Taro, 'redirectTo').mockRejectedValue({ errMsg: 'redirectTo:fail' })
    await goAfterLogin('/pages/pwd/pwd')
    expect(switchTab).toHaveBeenLastCalledWith({ url: '/pages/user/user' })
  })
})
