import { SOFTWARE_NAMES } from '@contract/software'

/**
 * The one place that knows which platform the app was built for. Taro replaces
 * `process.env.TARO_ENV` with a literal at build time, so the other branch is dead code in each
 * bundle; Jest leaves it a real variable, so tests can switch platforms by setting it.
 */
export type PlatformKind = 'weapp' | 'h5'

export function currentPlatform(): PlatformKind {
  return process.env.TARO_ENV === 'weapp' ? 'weapp' : 'h5'
}

/**
 * Whether the app runs as a web page (H5, WeChat's in-app browser, a mini-program web view). The
 * launch checks run only outside a browser: today the mini-program, later a native shell.
 */
export function isBrowser(): boolean {
  return currentPlatform() === 'h5'
}

/** The `softwareName` the server keys the privacy-policy version by, one per shipped product. */
export function currentSoftwareName(): string {
  return SOFTWARE_NAMES[currentPlatform()]
}

/**
 * Inside WeChat's (or QQ's, Weibo's) browser the host app already shows the page title in its own
 * bar, so the H5 build hides Taro's navigation bar there (see app.scss `.in-social-app`).
 */
export function markInSocialApp(): void {
  if (process.env.TARO_ENV === 'h5' && typeof document !== 'undefined') {
    document.body.classList.add('in-social-app')
  }
}
