import Taro from '@tarojs/taro'
import type { Environment } from '@/utils/env'
import { statusBarHeight, userAgent } from '../device'
import { currentEnvironment } from '../environment'

// Real user agents, as sent by the apps (the full table is in src/utils/__tests__/env.test.ts).
const UA = {
  wechatIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.42(0x18002a2a) NetType/WIFI Language/zh_CN',
  safariMacOrIpadOs:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  qqAndroid:
    'Mozilla/5.0 (Linux; Android 11; PCLM10 Build/RKQ1.200903.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/89.0.4389.72 MQQBrowser/6.2 TBS/046011 Mobile Safari/537.36 V1_AND_SQ_8.8.68_2392_YYB_D A_8086800 QQ/8.8.68.7265 NetType/WIFI WebP/0.3.0 Pixel/1080 StatusBarHeight/85 SimpleUISwitch/0 QQTheme/1000 InMagicWin/0 StudyMode/0 CurrentMode/0 CurrentFontScale/1.0',
}

type Flags = Omit<Environment, 'dev'>
const NONE: Flags = {
  wechat: false,
  miniProgramWebView: false,
  qq: false,
  weibo: false,
  android: false,
  ios: false,
}

describe('currentEnvironment', () => {
  const taroEnv = process.env.TARO_ENV
  type TestWindow = Window & { __wxjs_environment?: unknown }

  afterEach(() => {
    process.env.TARO_ENV = taroEnv
    delete (window as TestWindow).__wxjs_environment
    delete (globalThis as { wx?: unknown }).wx
    jest.restoreAllMocks()
  })

  it('on H5 reads navigator.userAgent and window.__wxjs_environment', () => {
    jest.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(UA.wechatIos)
    expect(currentEnvironment()).toMatchObject({
      wechat: true,
      ios: true,
      miniProgramWebView: false,
    })
    ;(window as TestWindow).__wxjs_environment = 'miniprogram'
    expect(currentEnvironment().miniProgramWebView).toBe(true)
  })

  it('on H5 recognises an iPad in desktop mode', () => {
    jest.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(UA.safariMacOrIpadOs)
    // jsdom has no maxTouchPoints; give this navigator one for the test.
    Object.defineProperty(window.navigator, 'maxTouchPoints', { value: 5, configurable: true })
    try {
      expect(currentEnvironment().ios).toBe(true)
    } finally {
      delete (window.navigator as { maxTouchPoints?: number }).maxTouchPoints
    }
    expect(currentEnvironment().ios).toBe(false)
  })

  it('on weapp ignores the fake user agent and reports WeChat and the OS from the device', () => {
    process.env.TARO_ENV = 'weapp'
    jest.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(UA.qqAndroid)
    ;(globalThis as { wx?: unknown }).wx = { getDeviceInfo: () => ({ platform: 'ios' }) }
    expect(currentEnvironment()).toEqual({ ...NONE, wechat: true, ios: true, dev: true })
  })

  it.each<[string, unknown, Partial<Flags>]>([
    [
      'getSystemInfoSync on old base libraries',
      { getSystemInfoSync: () => ({ platform: 'android' }) },
      { android: true },
    ],
    ['devtools platform', { getDeviceInfo: () => ({ platform: 'devtools' }) }, {}],
    ['no wx global', undefined, {}],
    [
      'device info that throws',
      {
        getDeviceInfo: () => {
          throw new Error('no')
        },
      },
      {},
    ],
  ])('on weapp with %s', (_label, wx, expected) => {
    process.env.TARO_ENV = 'weapp'
    if (wx !== undefined) (globalThis as { wx?: unknown }).wx = wx
    expect(currentEnvironment()).toEqual({ ...NONE, wechat: true, dev: true, ...expected })
  })
})

describe('device probes', () => {
  const taroEnv = process.env.TARO_ENV
  afterEach(() => {
    process.env.TARO_ENV = taroEnv
  })

  it('userAgent is the browser’s on H5 and null in the mini-program', () => {
    jest.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(UA.wechatIos)
    expect(userAgent()).toBe(UA.wechatIos)
    process.env.TARO_ENV = 'weapp'
    expect(userAgent()).toBeNull()
  })

  it('statusBarHeight is the window’s, and 0 when it is missing, not a number or throws', () => {
    const getWindowInfo = jest.spyOn(Taro, 'getWindowInfo')
    getWindowInfo.mockReturnValue({ statusBarHeight: 44 } as never)
    expect(statusBarHeight()).toBe(44)
    getWindowInfo.mockReturnValue({ statusBarHeight: Number.NaN } as never)
    expect(statusBarHeight()).toBe(0)
    getWindowInfo.mockImplementation(() => {
      throw new Error('no window')
    })
    expect(statusBarHeight()).toBe(0)
  })
})
