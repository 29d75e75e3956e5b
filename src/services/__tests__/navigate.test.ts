import Taro from '@tarojs/taro'
import { back, navigate, openUrl, redirect, relaunch, routeUrl, switchTab } from '../navigate'

describe('typed navigation', () => {
  let navigateTo: jest.SpyInstance
  let redirectTo: jest.SpyInstance
  let reLaunch: jest.SpyInstance
  let switchTabSpy: jest.SpyInstance
  let navigateBack: jest.SpyInstance
  let pages: jest.SpyInstance

  beforeEach(() => {
    navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
    redirectTo = jest.spyOn(Taro, 'redirectTo').mockResolvedValue({ errMsg: 'redirectTo:ok' })
    reLaunch = jest.spyOn(Taro, 'reLaunch').mockResolvedValue({ errMsg: 'reLaunch:ok' })
    switchTabSpy = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'switchTab:ok' })
    navigateBack = jest.spyOn(Taro, 'navigateBack').mockResolvedValue({ errMsg: 'navigateBack:ok' })
    pages = jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{}, {}] as never)
  })

  it('builds spec URLs from route names, encoding the query and leaving out undefined', () => {
    expect(routeUrl('login', { autoLogin: 1, redirect: '/pages/user/notice?a=1' })).toBe(
      '/pages/login/login?autoLogin=1&redirect=%2Fpages%2Fuser%2Fnotice%3Fa%3D1',
    )
    expect(routeUrl('password', { mode: undefined })).toBe('/pages/pwd/pwd')
    expect(routeUrl('avatarCropper')).toBe('/uview-ui/components/u-avatar-cropper/u-avatar-cropper')
    expect(routeUrl('chooseLocation')).toBe('/choose-location')
  })

  it('navigate opens a page, a tab by switchTab, and replaces past the ten-page stack', async () => {
    await expect(navigate('login', { autoLogin: 1 })).resolves.toBe(true)
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/login/login?autoLogin=1' })
    await navigate('user')
    expect(switchTabSpy).toHaveBeenLastCalledWith({ url: '/pages/user/user' })
    expect(navigateTo).toHaveBeenCalledTimes(1)
    pages.mockReturnValue(Array.from({ length: 10 }, () => ({})) as never)
    await navigate('about')
    expect(redirectTo).toHaveBeenLastCalledWith({ url: '/pages/about/about' })
    expect(navigateTo).toHaveBeenCalledTimes(1)
  })

  it('answers false instead of throwing when Taro refuses', async () => {
    navigateTo.mockRejectedValue({ errMsg: 'navigateTo:fail' })
    await expect(navigate('about')).resolves.toBe(false)
  })

  it('redirect, relaunch and switchTab use the matching Taro call', async () => {
    await redirect('password', { mode: 'forgot' })
    expect(redirectTo).toHaveBeenLastCalledWith({ url: '/pages/pwd/pwd?mode=forgot' })
    await relaunch('privacyPolicy', { consent: 1, version: '2.0 版' })
    expect(reLaunch).toHaveBeenLastCalledWith({
      url: `/pages/privacyPolicy/privacyPolicy?consent=1&version=${encodeURIComponent('2.0 版')}`,
    })
    await switchTab('main')
    expect(switchTabSpy).toHaveBeenLastCalledWith({ url: '/pages/main/main' })
  })

  it('back goes back, or to the fallback tab when the page was opened first', async () => {
    await back()
    expect(navigateBack).toHaveBeenCalled()
    expect(switchTabSpy).not.toHaveBeenCalled()
    pages.mockReturnValue([{}] as never)
    await back('user')
    expect(navigateBack).toHaveBeenCalledTimes(1)
    expect(switchTabSpy).toHaveBeenLastCalledWith({ url: '/pages/user/user' })
  })

  it('openUrl opens only our own routes; a tab without its query', async () => {
    await expect(openUrl('https://evil.example/pages/about/about')).resolves.toBe(false)
    await expect(openUrl('//evil.example/x')).resolves.toBe(false)
    await expect(openUrl('/pages/nothing/here')).resolves.toBe(false)
    expect(navigateTo).not.toHaveBeenCalled()
    await openUrl('/pages/user/notice?x=1')
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/user/notice?x=1' })
    await openUrl('/pages/user/user?tab=1', 'redirect')
    expect(switchTabSpy).toHaveBeenLastCalledWith({ url: '/pages/user/user' })
    await openUrl('/pages/about/about', 'redirect')
    expect(redirectTo).toHaveBeenLastCalledWith({ url: '/pages/about/about' })
  })

  it('types: names, tab-only switchTab and declared params are checked by tsc', () => {
    // @ts-expect-error not a route
    expect(() => routeUrl('nowhere')).toThrow()
    // @ts-expect-error scanLogin needs its id
    void routeUrl('scanLogin')
    // @ts-expect-error login has no such parameter
    void routeUrl('login', { autoLogin: 1, other: 'x' })
    // @ts-expect-error only tab pages
    void switchTab('about')
    // @ts-expect-error tab pages take no query
    void navigate('user', { a: 1 })
  })
})
