export { inBatches, type BatchLimits } from './batches'
export { keptAfterDeletion } from './kept'
export { purgeExpired, PURGE_INTERVAL_MS, startPurgeSchedule } from './purge'
export { ENFORCEMENT, retentionCutoff, retentionEnd, SCHEDULE, type Enforcer } from './schedule'
