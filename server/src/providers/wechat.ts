import { badRequest } from '../http/errors'

/** What a WeChat code exchange yields (jscode2session). */
export interface WechatIdentity {
  openid: string
  unionid?: string
}

/**
 * Turns a weapp `Taro.login` code into a WeChat identity. The embedded default says 未配置微信登录;
 * a real adapter calling jscode2session is a drop-in here.
 */
export interface WechatAuth {
  exchangeCode(code: string): Promise<WechatIdentity>
}

export const WECHAT_NOT_CONFIGURED = '未配置微信登录'

/**
 * Without WECHAT_APPID and WECHAT_SECRET there is nobody to exchange a code with. 400 rather than
 * 503 so the text reaches the person (5xx envelopes carry no `error`) and they can use phone login.
 */
export const unconfiguredWechatAuth: WechatAuth = {
  async exchangeCode() {
    throw badRequest(WECHAT_NOT_CONFIGURED)
  },
}
