import { listReceivedGrants, type ReceivedGrant } from '@/services/shares'

/**
 * 共享给我的 on Mine (issue 9), quietly in the background. The H5 build swaps in
 * received-grants.h5.ts, which loads the grants contract on demand, so the first screen does not
 * carry it.
 */
export function loadReceivedGrants(): Promise<ReceivedGrant[]> {
  return listReceivedGrants({ loading: false, quietOffline: true })
}
