import type { ExpertApplication } from '@/services/experts'
import { getMyExpertApplication } from '@/services/experts'

/** Where my expert application stands, as the 专家认证 entry says it (the server's own label). */
export type ExpertState = Pick<ExpertApplication, 'status' | 'statusLabel'>

/**
 * My application's state for 我的, quietly in the background (null: never applied). The H5 build
 * swaps in expert-state.h5.ts, which loads the experts contract after the first screen.
 */
export function loadExpertState(): Promise<ExpertState | null> {
  return getMyExpertApplication({ loading: false, quietOffline: true })
}
