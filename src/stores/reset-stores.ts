import { useAppStore } from './app-store'
import { useGlobalStore } from './global-store'
import { useHospitalChoice } from './hospital-store'
import { usePolicyStore } from './policy-store'
import { useSessionStore } from './session-store'

/**
 * Puts every store back to its defaults and forgets what was persisted, so one test cannot leak
 * state into the next (call it in beforeEach).
 */
export function resetStores(): void {
  useSessionStore.setState({ token: null })
  useSessionStore.persist.clearStorage()
  useAppStore.setState({ forcedLogin: false, hasLogin: false, userName: '', profile: null })
  useAppStore.persist.clearStorage()
  usePolicyStore.setState({ acceptedVersion: null })
  usePolicyStore.persist.clearStorage()
  useGlobalStore.setState({ agentMobile: '', inSocialApp: false })
  useHospitalChoice.setState({ chosen: null })
  useHospitalChoice.persist.clearStorage()
}
