import { exitApp } from '@/platform/exit'
import { taroNavigator } from '@/platform/navigation'
import { getPrivacySetting } from '@/platform/privacy'
import { detectProxy } from '@/platform/proxy'
import { currentSoftwareName, isBrowser } from '@/platform/runtime'
import { showModal } from '@/platform/ui'
import { getPolicyVersion } from '@/services/app-info'
import { usePolicyStore } from '@/stores/policy-store'
import { runLaunchChecks, type LaunchDeps, type LaunchOutcome } from './launch-checks'

/** The real adapters: platform, services and stores. */
export function createLaunchDeps(): LaunchDeps {
  return {
    isBrowser,
    softwareName: currentSoftwareName,
    detectProxy,
    exitApp,
    getPrivacySetting,
    // No "请求中..." at launch: the home page is drawing underneath and a mask would freeze it.
    getPolicyVersion: (softwareName) => getPolicyVersion(softwareName, { loading: false }),
    getAcceptedVersion: () => usePolicyStore.getState().acceptedVersion,
    reLaunch: taroNavigator.reLaunch,
    showModal,
  }
}

/**
 * What app.ts calls once, from `useLaunch(() => { void startLaunchChecks() })`. Never rejects: a
 * failed check must not crash the app shell.
 */
export function startLaunchChecks(): Promise<LaunchOutcome | 'failed'> {
  return runLaunchChecks(createLaunchDeps()).catch(() => 'failed' as const)
}
