import { usePrefetchWhenIdle } from '../../features/viewer/prefetch'

// The router's own request for this page (taro-loader's h5 routes import `pages/personalImage/viewer`):
// the same module, so webpack serves both from one chunk (checked in dist/h5, see the report).
const loadViewerPage = () => import('./viewer')

/**
 * H5 variant (Taro resolves `.h5.ts` first for the web): a page that opens the viewer loads the
 * viewer page's chunk while idle, so the tap does not wait for it. Only while `when` holds.
 */
export function usePrefetchViewer(when = true): void {
  usePrefetchWhenIdle(loadViewerPage, when)
}
