import { getPolicyVersion } from '@/services/app-info'
import { startLaunchChecks } from './launch-deps'

/**
 * Runs the launch checks from app.ts. The H5 build swaps in schedule-launch-checks.h5.ts (Taro
 * resolves `.h5.ts` first when building for the web).
 */
export function scheduleLaunchChecks(): void {
  // No "请求中..." at launch: the home page is drawing underneath and a mask would freeze it.
  void startLaunchChecks((softwareName) =>
    getPolicyVersion(softwareName, { loading: false, quietOffline: true }),
  )
}
