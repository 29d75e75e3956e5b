import Taro from '@tarojs/taro'
import { findRoute } from '@/routes'

/**
 * Where account pages go next. Kept in one module so the hooks never call Taro's router directly and
 * tests can watch one object.
 */

export const PAGES = {
  home: '/pages/main/main',
  mine: '/pages/user/user',
  login: '/pages/login/login',
  register: '/pages/reg/reg',
  regInfo: '/pages/reg/reg-info',
  forgotPassword: '/pages/pwd/pwd?mode=forgot',
  userAgreement: '/pages/agreement/agreement',
  privacyPolicy: '/pages/privacyPolicy/privacyPolicy',
} as const

/** Pages a login must never return to: it would open a form the person just finished. */
const NO_RETURN = new Set([
  'pages/login/login',
  'pages/login/loginios',
  'pages/reg/reg',
  'pages/reg/reg-info',
  'pages/delAccount/delAccount',
])

/**
 * The `redirect` query parameter as a page URL inside the app, or null. It arrives encoded once by
 * whoever built the link, and WeChat passes query values through undecoded, so it is decoded until
 * it reads as a path; anything that is not one of our routes (an outside address) is ignored.
 */
export function readRedirect(raw: string | undefined): string | null {
  if (!raw) return null
  let target = raw
  for (let i = 0; i < 3 && !target.startsWith('/') && /%[0-9A-Fa-f]{2}/.test(target); i += 1) {
    try {
      target = decodeURIComponent(target)
    } catch {
      return null
    }
  }
  if (!target.startsWith('/') || target.startsWith('//')) return null
  const route = findRoute(target)
  if (!route || NO_RETURN.has(route.path)) return null
  return target
}

/** A login page URL that brings the person back to `redirect` afterwards. */
export function withRedirect(path: string, redirect: string | null): string {
  if (!redirect) return path
  return `${path}${path.includes('?') ? '&' : '?'}redirect=${encodeURIComponent(redirect)}`
}

export const authNavigation = {
  navigateTo: (url: string) => Taro.navigateTo({ url }).then(() => undefined),
  redirectTo: (url: string) => Taro.redirectTo({ url }).then(() => undefined),
  switchTab: (url: string) => Taro.switchTab({ url }).then(() => undefined),
  reLaunch: (url: string) => Taro.reLaunch({ url }).then(() => undefined),
  navigateBack: () => Taro.navigateBack().then(() => undefined),
  setTitle: (title: string) => {
    void Taro.setNavigationBarTitle({ title }).catch(() => undefined)
  },
}

/**
 * After signing in: back to where the person was (a tab page needs switchTab, others replace the
 * login page), else the Mine tab. A target that cannot be opened falls back to Mine, so a stale
 * link never leaves the person stuck on login.
 */
export async function goAfterLogin(redirect: string | null): Promise<void> {
  const route = redirect ? findRoute(redirect) : undefined
  try {
    if (!redirect || !route) await authNavigation.switchTab(PAGES.mine)
    else if (route.tab !== undefined) await authNavigation.switchTab(`/${route.path}`)
    else await authNavigation.redirectTo(redirect)
  } catch {
    await authNavigation.switchTab(PAGES.mine).catch(() => undefined)
  }
}

/** Back to the previous page, or to `fallback` (a tab) when this page was opened first. */
export async function goBackOr(fallback: string): Promise<void> {
  const stack = Taro.getCurrentPages()
  if (stack.length > 1) {
    try {
      await authNavigation.navigateBack()
      return
    } catch {
      // fall through
    }
  }
  await authNavigation.switchTab(fallback).catch(() => undefined)
}
