import { exitApp } from '@/platform/exit'
import { taroNavigator } from '@/platform/navigation'
import { getPrivacySetting } from '@/platform/privacy'
import { detectProxy } from '@/platform/proxy'
import { currentSoftwareName, isBrowser } from '@/platform/runtime'
import { showModal } from '@/platform/ui'
import { usePolicyStore } from '@/stores/policy-store'
import { runLaunchChecks, type LaunchDeps, type LaunchOutcome } from './launch-checks'

/**
 * The real adapters: platform and stores. The policy-version call is passed in, so each build decides
 * how the request layer is loaded (see schedule-launch-checks*.ts).
 */
export function createLaunchDeps(getPolicyVersion: LaunchDeps['getPolicyVersion']): LaunchDeps {
  return {
    isBrowser,
    softwareName: currentSoftwareName,
    detectProxy,
    exitApp,
    getPrivacySetting,
    getPolicyVersion,
    getAcceptedVersion: () => usePolicyStore.getState().acceptedVersion,
    reLaunch: taroNavigator.reLaunch,
    showModal,
  }
}

/** Runs the checks once, at launch. Never rejects: a failed check must not crash the app shell. */
export function startLaunchChecks(
  getPolicyVersion: LaunchDeps['getPolicyVersion'],
): Promise<LaunchOutcome | 'failed'> {
  return runLaunchChecks(createLaunchDeps(getPolicyVersion)).catch(() => 'failed' as const)
}
