import { startRealtime } from './realtime'

/**
 * Starts the app's one live socket (it opens only while a screen listens). The H5 build swaps in
 * realtime-start.h5.ts, which loads the socket client after the first screen: it is not needed to
 * paint the home, and the H5 first screen has a size budget (scripts/check-budgets.ts).
 */
export function startRealtimeSoon(): void {
  startRealtime()
}
