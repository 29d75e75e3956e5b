import type { ExpertState } from './expert-state'

/** H5 variant of expert-state.ts: the experts contract loads after the first screen. */
export function loadExpertState(): Promise<ExpertState | null> {
  return import('@/services/experts').then((experts) =>
    experts.getMyExpertApplication({ loading: false, quietOffline: true }),
  )
}
