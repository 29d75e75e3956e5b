import {
  FrameCache,
  framePixels,
  parseMultipart,
  prefetchOrder,
  type ImageInfo,
  type PixelData,
} from '../core'

/** One image of the stack: an instance, or one frame of a multi-frame instance. */
export interface Slice {
  info: ImageInfo
  /** 1-based */
  frame: number
}

export interface FrameLoader {
  /** The decoded pixels if they are in the cache. */
  peek(index: number): PixelData | undefined
  /** The pixels of a slice, fetched once however many ask at the same time. */
  load(index: number): Promise<PixelData>
  /**
   * Fetches around `current` (PREFETCH_AHEAD each side, ahead first), a few at a time; a later
   * call replaces the queue of an earlier one, so scrolling fast does not fetch what was passed.
   */
  prefetch(current: number): void
  /** Stops prefetching (the page closed or the series changed). */
  dispose(): void
}

export const PREFETCH_AHEAD = 8
export const PREFETCH_PARALLEL = 3

export type FetchFrame = (
  info: ImageInfo,
  frame: number,
) => Promise<{ body: ArrayBuffer; contentType: string }>

export function sliceKey(slice: Slice): string {
  return `${slice.info.sopInstanceUid}/${slice.frame}`
}

/** Instances in display order, each multi-frame instance contributing its frames in order. */
export function slicesOf(infos: ImageInfo[]): Slice[] {
  const slices: Slice[] = []
  for (const info of infos) {
    const frames = Math.max(1, info.numberOfFrames)
    for (let frame = 1; frame <= frames; frame += 1) slices.push({ info, frame })
  }
  return slices
}

/**
 * Frames only ever live in the cache (bounded by FRAME_CACHE_BYTES, shared by every series of the
 * page): a 500-slice CT keeps the slices around the current one and drops the oldest.
 */
export function createFrameLoader(
  slices: Slice[],
  cache: FrameCache<PixelData>,
  fetchFrame: FetchFrame,
): FrameLoader {
  const inFlight = new Map<string, Promise<PixelData>>()
  let queue: number[] = []
  let running = 0
  let disposed = false

  async function fetchSlice(slice: Slice): Promise<PixelData> {
    const answer = await fetchFrame(slice.info, slice.frame)
    const [part] = parseMultipart(answer.body, answer.contentType)
    if (!part) throw new Error('frame answer without a part')
    return framePixels(slice.info, part)
  }

  function load(index: number): Promise<PixelData> {
    const slice = slices[index]
    if (!slice) return Promise.reject(new Error(`no slice ${index}`))
    const key = sliceKey(slice)
    const cached = cache.get(key)
    if (cached) return Promise.resolve(cached)
    const pending = inFlight.get(key)
    if (pending) return pending
    const promise = fetchSlice(slice)
      .then((pixels) => {
        cache.set(key, pixels)
        return pixels
      })
      .finally(() => inFlight.delete(key))
    inFlight.set(key, promise)
    return promise
  }

  function pump(): void {
    while (!disposed && running < PREFETCH_PARALLEL && queue.length > 0) {
      const index = queue.shift()!
      const slice = slices[index]
      if (!slice || cache.has(sliceKey(slice))) continue
      running += 1
      load(index)
        // A failed prefetch is retried when the slice is shown; nothing to tell anyone now.
        .catch(() => undefined)
        .finally(() => {
          running -= 1
          pump()
        })
    }
  }

  return {
    peek: (index) => {
      const slice = slices[index]
      return slice ? cache.get(sliceKey(slice)) : undefined
    },
    load,
    prefetch: (current) => {
      queue = prefetchOrder(current, slices.length, PREFETCH_AHEAD)
      pump()
    },
    dispose: () => {
      disposed = true
      queue = []
    },
  }
}
