import { detectEnvironment, isDev, type Environment } from '@/utils/env'
import { userAgent } from './device'

interface WeappDeviceInfo {
  platform?: unknown
}

interface WeappGlobal {
  getDeviceInfo?: () => WeappDeviceInfo
  getSystemInfoSync?: () => WeappDeviceInfo
}

function weappPlatform(): string | undefined {
  const wx: unknown = (globalThis as { wx?: unknown }).wx
  if (typeof wx !== 'object' || wx === null) return undefined
  const api = wx as WeappGlobal
  try {
    // getDeviceInfo (base library 2.20.1+) replaces the deprecated getSystemInfoSync.
    const info = api.getDeviceInfo?.() ?? api.getSystemInfoSync?.()
    return typeof info?.platform === 'string' ? info.platform : undefined
  } catch {
    return undefined
  }
}

/**
 * The environment this code runs in. On weapp there is no real user agent (Taro's runtime supplies
 * a fixed fake one), so only what the runtime knows is set: WeChat is the host, the OS comes from
 * the device info, and everything else is false. On H5 the flags come from `navigator.userAgent`
 * and `window.__wxjs_environment`.
 */
export function currentEnvironment(): Environment {
  if (process.env.TARO_ENV === 'weapp') {
    const platform = weappPlatform()
    return {
      wechat: true,
      miniProgramWebView: false,
      qq: false,
      weibo: false,
      android: platform === 'android',
      ios: platform === 'ios',
      dev: isDev(undefined),
    }
  }
  if (typeof navigator === 'undefined') return detectEnvironment('')
  const wxjsEnvironment =
    typeof window === 'undefined'
      ? undefined
      : (window as Window & { __wxjs_environment?: unknown }).__wxjs_environment
  return detectEnvironment(userAgent() ?? '', {
    wxjsEnvironment,
    maxTouchPoints: navigator.maxTouchPoints,
  })
}
