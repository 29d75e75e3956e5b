/** ISO timestamp `ms` milliseconds after `now` (negative for before). */
export function isoAfter(now: Date, ms: number): string {
  return new Date(now.getTime() + ms).toISOString()
}

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

/** A wait in words a user can act on: 45 秒, 3 分钟, 2 小时 (always rounded up). */
export function describeWait(ms: number): string {
  if (ms <= MINUTE) return `${Math.max(1, Math.ceil(ms / SECOND))} 秒`
  if (ms <= HOUR) return `${Math.ceil(ms / MINUTE)} 分钟`
  return `${Math.ceil(ms / HOUR)} 小时`
}
