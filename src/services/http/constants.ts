import { routeUrl } from '../navigate'

export const LOADING_TEXT = '请求中...'
export const LOADING_DELAY_MS = 800
export const RELOGIN_DELAY_MS = 1500
export const NETWORK_TIMEOUT_MS = 60000
/**
 * How long to wait for the request that won a refresh race (another tab) to store its new session
 * before giving up: the loser's 401 can arrive before the winner's 200 has been stored.
 */
export const REFRESH_RACE_SETTLE_MS = 1000
export const LOGIN_PATH = routeUrl('login')

export const MESSAGES = {
  relogin: '请重新登录！',
  buildFailed: '服务端异常',
  serverError: '服务端异常',
  network: '网络异常，请检查网络后重试',
  timeout: '网络请求超时，请检查网络后重试',
  status: (statusCode: number) => `请求失败（${statusCode}）`,
} as const
