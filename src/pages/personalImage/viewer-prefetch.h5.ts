import { usePrefetchWhenIdle } from '../../features/viewer/prefetch'
import { routeByName } from '../../routes'

interface RouteEntry {
  path: string
  load?: (context?: unknown, params?: unknown) => unknown
}

/**
 * The router's own loader of this page: taro-loader's H5 app entry keeps its routes (each with
 * `load`, an `import()` of the page) on `window.__taroAppConfig.routes`. Calling it fetches the very
 * chunk the tap will ask for. An `import('./viewer')` of our own would not: webpack builds it a
 * second chunk (without the modules this page already has), a second download at the tap
 * (checked in dist/h5). Where the router keeps no such route (another build), nothing is loaded.
 */
function loadViewerPage(): Promise<unknown> {
  const config = (globalThis as { __taroAppConfig?: { routes?: RouteEntry[] } }).__taroAppConfig
  const route = config?.routes?.find((entry) => entry.path === routeByName('imageViewer').path)
  const loaded = route?.load?.()
  return Array.isArray(loaded) ? Promise.resolve(loaded[0]) : Promise.resolve()
}

/**
 * H5 variant (Taro resolves `.h5.ts` first for the web): a page that opens the viewer loads the
 * viewer page's chunk while idle, so the tap does not wait for it. Only while `when` holds.
 */
export function usePrefetchViewer(when = true): void {
  usePrefetchWhenIdle(loadViewerPage, when)
}
