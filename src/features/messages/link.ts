import { findRoute, isComingSoon, ROUTES, type RouteName } from '@/routes'
import { openUrl } from '@/services/navigate'
import type { Message } from '@/services/messages'

/**
 * The page a message points to, when it is one of ours and already built: a route name of
 * src/routes.ts and its query, as the server wrote it (contract/main/messages.ts).
 */
export function linkTarget(link: Message['link']): string | null {
  if (!link) return null
  const route = ROUTES.find((one) => one.name === link.route)
  if (!route || isComingSoon(route.name as RouteName)) return null
  const query = Object.entries(link.params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&')
  const url = `/${route.path}${query ? `?${query}` : ''}`
  return findRoute(url) ? url : null
}

export function openMessageLink(link: Message['link']): Promise<boolean> {
  const url = linkTarget(link)
  return url ? openUrl(url) : Promise.resolve(false)
}
