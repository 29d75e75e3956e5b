import type { WechatAuth } from '../domain/identity/accounts'
import { badRequest } from '../http/errors'

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
