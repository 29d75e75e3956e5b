import { detectEnvironment, type Environment } from '../env'

// Real user agents, as sent by the apps.
const UA = {
  wechatIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.42(0x18002a2a) NetType/WIFI Language/zh_CN',
  wechatAndroid:
    'Mozilla/5.0 (Linux; Android 13; PGKM10 Build/TP1A.220905.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/107.0.5304.141 Mobile Safari/537.36 XWEB/5235 MMWEBSDK/20230805 MMWEBID/6185 MicroMessenger/8.0.42.2460(0x28002A35) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  wechatAndroidX5:
    'Mozilla/5.0 (Linux; Android 9; MI 8 Build/PKQ1.180729.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/66.0.3359.126 MQQBrowser/6.2 TBS/045008 Mobile Safari/537.36 MMWEBID/5632 MicroMessenger/7.0.10.1580(0x27000A3D) Process/tools NetType/WIFI Language/zh_CN ABI/arm64',
  miniProgramAndroid:
    'Mozilla/5.0 (Linux; Android 12; M2102K1C Build/SKQ1.211006.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/107.0.5304.141 Mobile Safari/537.36 XWEB/5197 MMWEBSDK/20230701 MMWEBID/2245 MicroMessenger/8.0.40.2420(0x28002837) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64 miniProgram/wx2b03c6e691cd7370',
  miniProgramIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.43(0x18002b2c) NetType/4G Language/zh_CN miniProgram/wx2b03c6e691cd7370',
  wecom:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 wxwork/4.1.10 MicroMessenger/7.0.1 Language/zh ColorScheme/Light',
  qqIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 15_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 QQ/8.8.88.612 V1_IPH_SQ_8.8.88_1_APP_A Pixel/1170 MiniAppEnable SimpleUISwitch/0 StudyMode/0 CurrentMode/0 CurrentFontScale/1.000000 QQTheme/1000 Core/WKWebView Device/Apple(iPhone 12) NetType/WIFI QBWebViewType/1 WKType/1',
  qqAndroid:
    'Mozilla/5.0 (Linux; Android 11; PCLM10 Build/RKQ1.200903.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/89.0.4389.72 MQQBrowser/6.2 TBS/046011 Mobile Safari/537.36 V1_AND_SQ_8.8.68_2392_YYB_D A_8086800 QQ/8.8.68.7265 NetType/WIFI WebP/0.3.0 Pixel/1080 StatusBarHeight/85 SimpleUISwitch/0 QQTheme/1000 InMagicWin/0 StudyMode/0 CurrentMode/0 CurrentFontScale/1.0',
  qqBrowserAndroid:
    'Mozilla/5.0 (Linux; U; Android 11; zh-cn; M2012K11AC Build/RKQ1.200826.002) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/89.0.4389.72 MQQBrowser/12.1 Mobile Safari/537.36 COVC/045730',
  weiboIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 14_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Weibo (iPhone12,1__weibo__11.3.3__iphone__os14.4)',
  weiboAndroid:
    'Mozilla/5.0 (Linux; Android 10; ELS-AN00 Build/HUAWEIELS-AN00; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/88.0.4324.93 Mobile Safari/537.36 Weibo (HUAWEI-ELS-AN00__weibo__11.6.3__android__android10)',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  safariIpad:
    'Mozilla/5.0 (iPad; CPU OS 12_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1',
  safariMacOrIpadOs:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  harmonyNext:
    'Mozilla/5.0 (Phone; OpenHarmony 4.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile',
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

describe('detectEnvironment', () => {
  it.each<[keyof typeof UA, Partial<Flags>]>([
    ['wechatIos', { wechat: true, ios: true }],
    ['wechatAndroid', { wechat: true, android: true }],
    ['wechatAndroidX5', { wechat: true, android: true }],
    ['miniProgramAndroid', { wechat: true, miniProgramWebView: true, android: true }],
    ['miniProgramIos', { wechat: true, miniProgramWebView: true, ios: true }],
    ['wecom', { wechat: true, ios: true }],
    ['qqIos', { qq: true, ios: true }],
    ['qqAndroid', { qq: true, android: true }],
    ['qqBrowserAndroid', { android: true }],
    ['weiboIos', { weibo: true, ios: true }],
    ['weiboAndroid', { weibo: true, android: true }],
    ['safariIphone', { ios: true }],
    ['safariIpad', { ios: true }],
    ['safariMacOrIpadOs', {}],
    ['chromeAndroid', { android: true }],
    ['chromeWindows', {}],
    ['harmonyNext', {}],
  ])('%s', (name, expected) => {
    expect(detectEnvironment(UA[name], { nodeEnv: 'production' })).toEqual({
      ...NONE,
      ...expected,
      dev: false,
    })
  })

  it('is all false for an empty or missing user agent', () => {
    expect(detectEnvironment('', { nodeEnv: 'production' })).toEqual({ ...NONE, dev: false })
    expect(detectEnvironment(undefined, { nodeEnv: 'production' })).toEqual({ ...NONE, dev: false })
  })

  it('takes __wxjs_environment as the mini-program web view signal', () => {
    expect(
      detectEnvironment(UA.wechatIos, { wxjsEnvironment: 'miniprogram' }).miniProgramWebView,
    ).toBe(true)
    expect(detectEnvironment(UA.wechatIos, { wxjsEnvironment: 'browser' }).miniProgramWebView).toBe(
      false,
    )
  })

  it('tells an iPad in desktop mode from a Mac by its touch points', () => {
    expect(detectEnvironment(UA.safariMacOrIpadOs, { maxTouchPoints: 5 }).ios).toBe(true)
    expect(detectEnvironment(UA.safariMacOrIpadOs, { maxTouchPoints: 0 }).ios).toBe(false)
    expect(detectEnvironment(UA.chromeWindows, { maxTouchPoints: 10 }).ios).toBe(false)
  })

  it.each<[string | undefined, boolean]>([
    ['production', false],
    ['development', true],
    ['test', true],
  ])('dev for NODE_ENV %p is %p', (nodeEnv, dev) => {
    expect(detectEnvironment(UA.chromeAndroid, { nodeEnv }).dev).toBe(dev)
  })

  it('reads dev from process.env.NODE_ENV by default', () => {
    expect(process.env.NODE_ENV).toBe('test')
    expect(detectEnvironment(UA.chromeAndroid).dev).toBe(true)
  })
})
