import Taro from '@tarojs/taro'
import { currentEnvironment } from './environment'

/*
 * Paying with WeChat Pay's JSAPI, wherever the app runs: the mini-program asks `Taro.requestPayment`;
 * WeChat's own browser asks the page's `WeixinJSBridge` (getBrandWCPayRequest); any other browser
 * cannot pay with WeChat at all, and the screen says 请在微信中打开以完成支付.
 */

/** Where the app pays, as the server's payConsultation names it. */
export type PayClient = 'weapp' | 'wechat-h5' | 'h5'

export function currentPayClient(): PayClient {
  if (process.env.TARO_ENV === 'weapp') return 'weapp'
  return currentEnvironment().wechat ? 'wechat-h5' : 'h5'
}

export interface JsapiParams {
  appId: string
  timeStamp: string
  nonceStr: string
  package: string
  signType: 'RSA'
  paySign: string
}

/** paid: WeChat says it went through (the server still confirms); cancelled: the person closed it. */
export type WechatPayOutcome = 'paid' | 'cancelled' | 'failed'

interface WeixinJSBridge {
  invoke: (name: string, params: JsapiParams, done: (result: { err_msg?: string }) => void) => void
}

function errMsgOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'errMsg' in error) {
    return String((error as { errMsg: unknown }).errMsg)
  }
  return String(error)
}

export async function requestWechatPayment(params: JsapiParams): Promise<WechatPayOutcome> {
  if (process.env.TARO_ENV === 'weapp') {
    try {
      await Taro.requestPayment({
        timeStamp: params.timeStamp,
        nonceStr: params.nonceStr,
        package: params.package,
        signType: params.signType,
        paySign: params.paySign,
      })
      return 'paid'
    } catch (error) {
      return /cancel/i.test(errMsgOf(error)) ? 'cancelled' : 'failed'
    }
  }
  const bridge = (globalThis as { WeixinJSBridge?: WeixinJSBridge }).WeixinJSBridge
  if (!bridge) return 'failed'
  return new Promise((resolve) => {
    bridge.invoke('getBrandWCPayRequest', params, (result) => {
      const message = result.err_msg ?? ''
      if (message === 'get_brand_wcpay_request:ok') resolve('paid')
      else resolve(/cancel/i.test(message) ? 'cancelled' : 'failed')
    })
  })
}
