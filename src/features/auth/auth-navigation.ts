import Taro from '@tarojs/taro'
import { findRoute, routeByName, type RouteName } from '@/routes'
import { openUrl, switchTab } from '@/services/navigate'

/** Pages a login must never return to: it would open a form the person just finished. */
const NO_RETURN = new Set(
  (
    [
      'login',
      'loginIos',
      'register',
      'registerInfo',
      'deleteAccount',
    ] as const satisfies readonly RouteName[]
  ).map((name) => routeByName(name).path),
)

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

/** `{ redirect }` for a page's params when there is somewhere to come back to. */
export function redirectParam(redirect: string | null): { redirect?: string } {
  return redirect ? { redirect } : {}
}

/**
 * After signing in: back to where the person was (a tab page by switchTab, others replace the login
 * page), else the Mine tab. A target that cannot be opened falls back to Mine, so a stale link
 * never leaves the person stuck on login.
 */
export async function goAfterLogin(redirect: string | null): Promise<void> {
  if (redirect && (await openUrl(redirect, 'redirect'))) return
  await switchTab('user')
}

/** Whether the page under this one is a login page (register was opened from it). */
export function openedFromLogin(): boolean {
  const stack = Taro.getCurrentPages()
  const previous = stack.length > 1 ? stack[stack.length - 2].route : undefined
  const route = previous ? findRoute(`/${previous.replace(/^\//, '')}`) : undefined
  return route?.name === 'login' || route?.name === 'loginIos'
}

export function setTitle(title: string): void {
  void Taro.setNavigationBarTitle({ title }).catch(() => undefined)
}
