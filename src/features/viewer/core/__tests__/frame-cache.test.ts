import { FRAME_CACHE_BYTES, FrameCache, prefetchOrder } from '../index'

const frame = (byteLength: number) => ({ byteLength })

describe('FrameCache', () => {
  it('evicts the least recently used first, and a read counts as a use', () => {
    const cache = new FrameCache<{ byteLength: number }>(300)
    cache.set('a', frame(100))
    cache.set('b', frame(100))
    cache.set('c', frame(100))
    expect(cache.get('a')).toEqual(frame(100))
    cache.set('d', frame(100))
    expect(cache.get('b')).toBeUndefined()
    expect(['a', 'c', 'd'].map((k) => cache.has(k))).toEqual([true, true, true])
    expect(cache.bytes).toBe(300)
    cache.set('e', frame(250))
    expect(['a', 'c', 'd', 'e'].map((k) => cache.has(k))).toEqual([false, false, false, true])
    expect(cache.bytes).toBe(250)
  })

  it('counts a replaced key once', () => {
    const cache = new FrameCache<{ byteLength: number }>(1000)
    cache.set('a', frame(100))
    cache.set('a', frame(300))
    expect(cache.bytes).toBe(300)
    expect(cache.size).toBe(1)
    cache.delete('a')
    expect(cache.bytes).toBe(0)
  })

  it('keeps nothing larger than the bound (and evicts nothing for it)', () => {
    const cache = new FrameCache<{ byteLength: number }>(100)
    cache.set('a', frame(60))
    cache.set('big', frame(101))
    expect(cache.has('big')).toBe(false)
    expect(cache.has('a')).toBe(true)
  })

  it('holds real typed arrays by their byte length', () => {
    const cache = new FrameCache<Int16Array>(1024)
    cache.set('1', new Int16Array(256))
    cache.set('2', new Int16Array(256))
    cache.set('3', new Int16Array(256))
    expect(cache.bytes).toBe(1024)
    expect(cache.has('1')).toBe(false)
  })

  it('a 500-slice 512² 16-bit CT scrolled through and back never exceeds FRAME_CACHE_BYTES', () => {
    const slices = 500
    const sliceBytes = 512 * 512 * 2
    const ahead = 20
    const cache = new FrameCache<{ byteLength: number }>(FRAME_CACHE_BYTES)
    let fetched = 0
    let peak = 0
    const visit = (current: number) => {
      for (const index of prefetchOrder(current, slices, ahead)) {
        if (cache.get(`ct/${index}`)) continue
        cache.set(`ct/${index}`, frame(sliceBytes))
        fetched++
        peak = Math.max(peak, cache.bytes)
        expect(cache.bytes).toBeLessThanOrEqual(FRAME_CACHE_BYTES)
      }
      // The slice on screen and its neighbours are there after prefetching.
      expect(cache.has(`ct/${current}`)).toBe(true)
      expect(cache.has(`ct/${Math.min(slices - 1, current + ahead)}`)).toBe(true)
    }
    for (let s = 0; s < slices; s++) visit(s)
    for (let s = slices - 1; s >= 0; s--) visit(s)
    // The whole CT (250 MB) would not fit: the bound really was reached, and it held.
    expect(slices * sliceBytes).toBeGreaterThan(FRAME_CACHE_BYTES)
    expect(peak).toBeGreaterThan(FRAME_CACHE_BYTES - sliceBytes)
    expect(fetched).toBeGreaterThan(slices)
  })

  it('the bound holds the prefetch window of a 512² CT many times over, within a phone’s budget', () => {
    expect(FRAME_CACHE_BYTES / (512 * 512 * 2)).toBeGreaterThanOrEqual(4 * 41)
    expect(FRAME_CACHE_BYTES).toBeLessThanOrEqual(128 * 1024 * 1024)
  })
})

describe('prefetchOrder', () => {
  it('goes outward from the current slice, ahead before behind', () => {
    expect(prefetchOrder(5, 10, 2)).toEqual([5, 6, 4, 7, 3])
  })

  it('stops at the ends of the stack', () => {
    expect(prefetchOrder(0, 10, 3)).toEqual([0, 1, 2, 3])
    expect(prefetchOrder(9, 10, 2)).toEqual([9, 8, 7])
    expect(prefetchOrder(1, 3, 10)).toEqual([1, 2, 0])
    expect(prefetchOrder(0, 1, 5)).toEqual([0])
    expect(prefetchOrder(0, 0, 5)).toEqual([])
  })

  it('clamps a current index outside the stack', () => {
    expect(prefetchOrder(12, 10, 1)).toEqual([9, 8])
    expect(prefetchOrder(-3, 10, 1)).toEqual([0, 1])
  })

  it('never repeats an index and always starts with the current one', () => {
    for (let total = 1; total < 30; total++) {
      for (let current = 0; current < total; current++) {
        const order = prefetchOrder(current, total, 7)
        expect(order[0]).toBe(current)
        expect(new Set(order).size).toBe(order.length)
        expect(order.every((i) => i >= 0 && i < total && Math.abs(i - current) <= 7)).toBe(true)
        expect(order).toHaveLength(Math.min(total - 1, current + 7) - Math.max(0, current - 7) + 1)
      }
    }
  })
})
