import { showModal } from '@/platform/ui'
import { H5_CHECK_INTERVAL_MS, isNewBuild, UPDATE_TEXTS } from './update-policy'

/**
 * H5 variant of update-check.ts: the page compares its own build id (embedded at build time, the
 * sources' hash the server also reads from dist/h5/.source-hash) with the one the server serves
 * now, on launch and whenever the tab comes back (at most every 10 minutes), and offers 刷新. A
 * build the person declined is not offered again in this page's life.
 */
const RUNNING = process.env.TARO_APP_H5_BUILD

let lastCheck = 0
let declined: string | null = null

async function check(): Promise<void> {
  const now = Date.now()
  if (now - lastCheck < H5_CHECK_INTERVAL_MS) return
  lastCheck = now
  let deployed: string | null
  try {
    // Loaded after the first screen: the contract's schemas are not first-screen JavaScript.
    const { getDeployedH5Build } = await import('@/services/app-build')
    deployed = await getDeployedH5Build()
  } catch {
    return // offline or the server is restarting: the next check will tell
  }
  if (!isNewBuild(RUNNING, deployed) || deployed === declined) return
  const reload = await showModal({
    title: UPDATE_TEXTS.title,
    content: UPDATE_TEXTS.readyH5,
    confirmText: UPDATE_TEXTS.confirmH5,
    cancelText: UPDATE_TEXTS.later,
  })
  if (reload) window.location.reload()
  else declined = deployed
}

export function startUpdateCheck(): void {
  if (!RUNNING) return // a dev server's build has no id
  setTimeout(() => void check(), 3000)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void check()
  })
}
