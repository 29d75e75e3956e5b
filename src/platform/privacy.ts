import Taro from '@tarojs/taro'

/**
 * WeChat's privacy authorisation (base library 2.32.3+). Where the base library or the platform does
 * not have it, every function is a harmless no-op, so callers never branch on the platform.
 */

export interface PrivacySetting {
  needAuthorization: boolean
  contractName: string
}

function hasPrivacyApi(name: 'getPrivacySetting' | 'requirePrivacyAuthorize'): boolean {
  if (process.env.TARO_ENV !== 'weapp') return false
  return typeof Taro[name] === 'function'
}

/** null where WeChat's privacy API does not exist (H5, old base library) or the query failed. */
export function getPrivacySetting(): Promise<PrivacySetting | null> {
  if (!hasPrivacyApi('getPrivacySetting')) return Promise.resolve(null)
  return new Promise((resolve) => {
    Taro.getPrivacySetting({
      success: (result) =>
        resolve({
          needAuthorization: result.needAuthorization,
          contractName: result.privacyContractName,
        }),
      fail: () => resolve(null),
    })
  })
}

/**
 * Asks WeChat to run its privacy flow (it fires onNeedPrivacyAuthorization when consent is missing).
 * Resolves true when consent is in place, or when there is no such flow on this platform.
 */
export function requirePrivacyAuthorize(): Promise<boolean> {
  if (!hasPrivacyApi('requirePrivacyAuthorize')) return Promise.resolve(true)
  return new Promise((resolve) => {
    Taro.requirePrivacyAuthorize({
      success: () => resolve(true),
      fail: () => resolve(false),
    })
  })
}

/**
 * Whether the consent button can carry `openType="agreePrivacyAuthorization"`, which records the
 * user's agreement with WeChat in the same tap that records it with us.
 */
export function canUseAgreePrivacyButton(): boolean {
  if (process.env.TARO_ENV !== 'weapp') return false
  try {
    return Taro.canIUse('button.open-type.agreePrivacyAuthorization')
  } catch {
    return false
  }
}
