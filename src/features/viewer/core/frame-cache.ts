/**
 * The bound on decoded frames the viewer keeps. WeChat warns a mini-program (onMemoryWarning) and
 * then kills it well before a 2 GB phone is full: the whole process (JS heap, the page, its canvas
 * backing stores of ~10 MB each at 3× DPR) must stay in a few hundred MB on low-end Android. 96 MB
 * is 192 slices of a 512² 16-bit CT (512 KB each), many times what prefetching around the current
 * slice needs, while a 500-slice CT (250 MB decoded) never is held whole.
 */
export const FRAME_CACHE_BYTES = 96 * 1024 * 1024

/** Decoded frames kept under a byte bound (LRU): the least recently read goes first. */
export class FrameCache<T extends { byteLength: number }> {
  private readonly entries = new Map<string, T>()
  private total = 0

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.total
  }

  get size(): number {
    return this.entries.size
  }

  has(key: string): boolean {
    return this.entries.has(key)
  }

  get(key: string): T | undefined {
    const value = this.entries.get(key)
    if (value === undefined) return undefined
    // Map keeps insertion order: re-inserting makes it the most recently used.
    this.entries.delete(key)
    this.entries.set(key, value)
    return value
  }

  /** A value larger than the whole bound is not kept (it would evict everything for nothing). */
  set(key: string, value: T): void {
    this.delete(key)
    if (value.byteLength > this.maxBytes) return
    while (this.total + value.byteLength > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string
      this.delete(oldest)
    }
    this.entries.set(key, value)
    this.total += value.byteLength
  }

  delete(key: string): void {
    const value = this.entries.get(key)
    if (value === undefined) return
    this.entries.delete(key)
    this.total -= value.byteLength
  }

  clear(): void {
    this.entries.clear()
    this.total = 0
  }
}

/**
 * Which slices (0-based indices into the stack) to fetch next: the current one, then outward,
 * one ahead before the one behind at each distance (scrolling forward is the common case), at
 * most `ahead` on each side, never outside 0..total-1.
 */
export function prefetchOrder(current: number, total: number, ahead: number): number[] {
  const order: number[] = []
  if (total <= 0) return order
  const at = Math.min(total - 1, Math.max(0, Math.floor(current)))
  order.push(at)
  for (let d = 1; d <= ahead; d++) {
    if (at + d < total) order.push(at + d)
    if (at - d >= 0) order.push(at - d)
    if (at + d >= total && at - d < 0) break
  }
  return order
}
