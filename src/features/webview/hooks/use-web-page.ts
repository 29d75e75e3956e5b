import { useEffect, useState } from 'react'
import { openAsPage } from '@/platform/web-page'
import { checkWebAddress, listWebOrigins, type WebCheck } from '@/services/web-origins'

export const WEB_REFUSED = '该网页不在允许范围内，无法打开'
export const WEB_INVALID = '网页地址无效，无法打开'

export type WebPageState =
  | { status: 'checking' }
  | { status: 'error' }
  | { status: 'refused'; message: string; shown: string }
  /** weapp: shown in the page's web-view; H5: the browser is on its way there. */
  | { status: 'open'; url: string; left: boolean }

/** Checks the address against the server's allow-list before anything is loaded. */
export function useWebPage(raw: string | undefined): { state: WebPageState; retry: () => void } {
  const [state, setState] = useState<WebPageState>({ status: 'checking' })
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let alive = true
    setState({ status: 'checking' })
    listWebOrigins().then(
      (origins) => {
        if (!alive) return
        const check: WebCheck = checkWebAddress(raw, origins)
        if (!check.allowed) {
          setState({
            status: 'refused',
            message: check.reason === 'invalid' ? WEB_INVALID : WEB_REFUSED,
            shown: check.shown,
          })
          return
        }
        setState({ status: 'open', url: check.url, left: openAsPage(check.url) })
      },
      () => alive && setState({ status: 'error' }),
    )
    return () => {
      alive = false
    }
  }, [raw, attempt])
  return { state, retry: () => setAttempt((n) => n + 1) }
}
