import Taro from '@tarojs/taro'

/*
 * 确认收款 of a WeChat Pay 商家转账 (state WAIT_USER_CONFIRM): only the mini-program can ask WeChat
 * to show its receipt page, with wx.requestMerchantTransfer (base library 3.3.0 and later). Taro 4
 * copies every wx API onto Taro but promisifies only those it knows, and this one it does not know,
 * so it is called here with callbacks. H5 (WeChat's browser included) cannot confirm at all.
 */

/** The base library that has wx.requestMerchantTransfer. */
export const MERCHANT_TRANSFER_MIN_SDK = '3.3.0'

export interface MerchantTransferParams {
  mchId: string
  appId: string
  /** The transfer bill's package_info, as WeChat Pay answered it when the bill was made. */
  packageInfo: string
}

/**
 * confirmed: WeChat says the person confirmed (the server still asks the provider); cancelled: they
 * closed it; failed: WeChat refused; outdated: this WeChat is too old; unavailable: not the
 * mini-program.
 */
export type MerchantTransferOutcome =
  'confirmed' | 'cancelled' | 'failed' | 'outdated' | 'unavailable'

interface WxMerchantTransfer {
  (options: {
    mchId: string
    appId: string
    package: string
    success: () => void
    fail: (error: { errMsg?: string }) => void
  }): void
}

interface WxBaseInfo {
  getAppBaseInfo?: () => { SDKVersion?: string }
  getSystemInfoSync?: () => { SDKVersion?: string }
}

/** -1, 0 or 1 as dotted versions compare (3.10.0 is after 3.3.0). */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map((part) => Number.parseInt(part, 10) || 0)
  const right = b.split('.').map((part) => Number.parseInt(part, 10) || 0)
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const diff = (left[index] ?? 0) - (right[index] ?? 0)
    if (diff !== 0) return diff < 0 ? -1 : 1
  }
  return 0
}

function sdkVersion(api: WxBaseInfo): string | null {
  try {
    return api.getAppBaseInfo?.().SDKVersion ?? api.getSystemInfoSync?.().SDKVersion ?? null
  } catch {
    return null
  }
}

type WxApi = WxBaseInfo & { requestMerchantTransfer?: WxMerchantTransfer }

/** Taro's copy of the API, or wx's own when Taro did not copy it (it copies what wx had at start). */
function transferApi(): WxMerchantTransfer | null {
  const taro = Taro as unknown as WxApi
  if (typeof taro.requestMerchantTransfer === 'function') {
    return taro.requestMerchantTransfer.bind(taro)
  }
  const wx = (globalThis as { wx?: WxApi }).wx
  return typeof wx?.requestMerchantTransfer === 'function'
    ? wx.requestMerchantTransfer.bind(wx)
    : null
}

/** Whether this app can show WeChat's 确认收款 page at all (mini-program, new enough). */
export function merchantTransferSupport(): 'ok' | 'outdated' | 'unavailable' {
  if (process.env.TARO_ENV !== 'weapp') return 'unavailable'
  if (transferApi() === null) return 'outdated'
  const version = sdkVersion(Taro as unknown as WxBaseInfo)
  if (version !== null && compareVersions(version, MERCHANT_TRANSFER_MIN_SDK) < 0) return 'outdated'
  return 'ok'
}

export function requestMerchantTransfer(
  params: MerchantTransferParams,
): Promise<MerchantTransferOutcome> {
  const support = merchantTransferSupport()
  if (support !== 'ok') return Promise.resolve(support)
  const request = transferApi()!
  return new Promise((resolve) => {
    try {
      request({
        mchId: params.mchId,
        appId: params.appId,
        package: params.packageInfo,
        success: () => resolve('confirmed'),
        fail: (error) => resolve(/cancel/i.test(error?.errMsg ?? '') ? 'cancelled' : 'failed'),
      })
    } catch {
      resolve('failed')
    }
  })
}
