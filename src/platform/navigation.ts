import Taro from '@tarojs/taro'

/**
 * Navigation the services and features need, kept here so they never call Taro's router directly
 * and tests can replace it.
 */
export interface Navigator {
  /** Closes every page and opens `url` (used for login after 401 and for the consent page). */
  reLaunch: (url: string) => Promise<void>
  switchTab: (url: string) => Promise<void>
  /** The current page as a URL (`/pages/x/x?a=1`), or '' before the first page exists. */
  currentUrl: () => string
}

/** Builds `path?a=1&b=2`, encoding each part; undefined values are left out. */
export function withQuery(path: string, params: Record<string, string | undefined>): string {
  const query = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&')
  if (query === '') return path
  return `${path}${path.includes('?') ? '&' : '?'}${query}`
}

function currentUrl(): string {
  const router = Taro.getCurrentInstance().router
  if (!router) return ''
  const path = router.path.split('?')[0]
  const params: Record<string, string | undefined> = {}
  for (const [key, value] of Object.entries(router.params)) {
    // Taro adds its own `$taroTimestamp`-style keys; they mean nothing in a redirect target.
    if (key.startsWith('$') || typeof value !== 'string') continue
    params[key] = value
  }
  return withQuery(path.startsWith('/') ? path : `/${path}`, params)
}

export const taroNavigator: Navigator = {
  reLaunch: async (url) => {
    await Taro.reLaunch({ url })
  },
  switchTab: async (url) => {
    await Taro.switchTab({ url })
  },
  currentUrl,
}
