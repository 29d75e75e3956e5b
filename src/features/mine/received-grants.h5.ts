import type { ReceivedGrant } from '@/services/shares'

/** H5 variant of received-grants.ts: the grants contract loads after the first screen. */
export function loadReceivedGrants(): Promise<ReceivedGrant[]> {
  return import('@/services/shares').then((shares) =>
    shares.listReceivedGrants({ loading: false, quietOffline: true }),
  )
}
