/**
 * Environment detection of SPEC section 9: which host app and OS the H5 build runs in.
 * `detectEnvironment` is pure over a user-agent string; `currentEnvironment` in src/platform/environment.ts
 * reads the real one (platform probes live only in src/platform).
 */

export interface Environment {
  /** Inside WeChat: its in-app browser, a mini-program web view, or (weapp) the mini-program. */
  wechat: boolean
  /** An H5 page shown by a mini-program's <web-view>. */
  miniProgramWebView: boolean
  /** Inside the QQ app's in-app browser (not the separate QQ Browser app). */
  qq: boolean
  /** Inside the Weibo app's in-app browser. */
  weibo: boolean
  android: boolean
  ios: boolean
  /** Any build except a production one. */
  dev: boolean
}

export interface DetectOptions {
  /**
   * `window.__wxjs_environment`. WeChat sets it to 'miniprogram' inside a mini-program web view;
   * it is the documented signal, for WeChat versions whose user agent lacks "miniProgram". It is
   * only set once WeixinJSBridge is ready.
   */
  wxjsEnvironment?: unknown
  /**
   * `navigator.maxTouchPoints`. iPadOS 13+ presents itself as a Mac ("Macintosh") by default; a Mac
   * user agent with a touch screen is an iPad.
   */
  maxTouchPoints?: number
  /** Defaults to process.env.NODE_ENV. */
  nodeEnv?: string
}

export function detectEnvironment(userAgent = '', opts: DetectOptions = {}): Environment {
  const ua = userAgent
  const iPadAsMac = /Macintosh/.test(ua) && (opts.maxTouchPoints ?? 0) > 1
  return {
    wechat: /MicroMessenger/i.test(ua),
    miniProgramWebView: /miniProgram/i.test(ua) || opts.wxjsEnvironment === 'miniprogram',
    // "QQ/8.9.x" marks the QQ app; the word boundary keeps out "MQQBrowser/", which WeChat's and
    // other Android web views based on Tencent's X5 engine carry too.
    qq: /\bQQ\/\d/.test(ua),
    weibo: /weibo/i.test(ua),
    // HarmonyOS 2-4 phones say "Android" and run Android apps, so they count as Android.
    android: /Android/i.test(ua),
    ios: /iPhone|iPad|iPod/.test(ua) || iPadAsMac,
    dev: isDev(opts.nodeEnv),
  }
}

export function isDev(nodeEnv: string | undefined): boolean {
  // Written out whole: the build replaces `process.env.NODE_ENV` as text, and there is no `process`
  // object at run time on H5 or weapp.
  return (nodeEnv ?? process.env.NODE_ENV) !== 'production'
}
