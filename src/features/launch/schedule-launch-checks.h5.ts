import { startLaunchChecks } from './launch-deps'

/**
 * H5 variant. In a browser the launch checks never ask for the policy version (consent is taken at
 * sign-up and login), so the request layer and its schemas load on demand, not with the first screen.
 */
export function scheduleLaunchChecks(): void {
  void startLaunchChecks((softwareName) =>
    import('@/services/app-info').then((api) =>
      api.getPolicyVersion(softwareName, { loading: false, quietOffline: true }),
    ),
  )
}
