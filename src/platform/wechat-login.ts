import Taro from '@tarojs/taro'

/**
 * WeChat login's device half: the mini-program asks WeChat for a one-time code (`Taro.login`), which
 * the server exchanges for the person's openid. A web page has no such code, so there it is not
 * offered at all rather than shown and failing.
 */

export function canLoginWithWechat(): boolean {
  return process.env.TARO_ENV === 'weapp' && typeof Taro.login === 'function'
}

export class WechatLoginError extends Error {
  constructor(readonly errMsg: string) {
    super(errMsg)
    this.name = 'WechatLoginError'
  }
}

/** The code to send to POST /main/account/wechat/login; rejects with WechatLoginError. */
export async function getWechatLoginCode(): Promise<string> {
  if (!canLoginWithWechat()) throw new WechatLoginError('当前环境不支持微信登录')
  let code: string | undefined
  try {
    code = (await Taro.login()).code
  } catch (error) {
    const errMsg =
      typeof error === 'object' && error !== null && 'errMsg' in error
        ? String((error as { errMsg: unknown }).errMsg)
        : String(error)
    throw new WechatLoginError(errMsg)
  }
  if (!code) throw new WechatLoginError('微信未返回登录凭证')
  return code
}
