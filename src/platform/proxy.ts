export type ProxyStatus = 'proxy' | 'none' | 'cannot-detect'

/**
 * Detects a network proxy on the device (SPEC section 1: an iOS app refuses to run behind one, so
 * medical data is not exposed to an intercepting proxy).
 *
 * Neither the mini-program nor a web page can see the device's proxy settings, so both report
 * 'cannot-detect' and the launch checks show nothing. The iOS check belongs to a future native
 * shell, which will provide its own `ProxyDetector` reading the system proxy configuration.
 */
export interface ProxyDetector {
  detectProxy: () => Promise<ProxyStatus>
}

export const weappProxyDetector: ProxyDetector = {
  detectProxy: async () => 'cannot-detect',
}

export const h5ProxyDetector: ProxyDetector = {
  detectProxy: async () => 'cannot-detect',
}

export function detectProxy(): Promise<ProxyStatus> {
  const detector = process.env.TARO_ENV === 'weapp' ? weappProxyDetector : h5ProxyDetector
  return detector.detectProxy()
}
