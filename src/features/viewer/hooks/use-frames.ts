import { useEffect, useRef, useState } from 'react'
import { fetchFrame } from '@/services/viewer'
import { FRAME_CACHE_BYTES, FrameCache, type PixelData } from '../core'
import { createFrameLoader, sliceKey, type FrameLoader, type Slice } from './frame-loader'

/**
 * The page's frame cache: one for every series the page shows, so the memory bound holds overall,
 * and dropped with the page (a module-level cache would keep its 96 MB after the viewer closed).
 */
export function createFrameCache(): FrameCache<PixelData> {
  return new FrameCache<PixelData>(FRAME_CACHE_BYTES)
}

export interface FramesInput {
  studyUid: string
  slices: Slice[]
  startIndex: number
  cache: FrameCache<PixelData>
  /** The slice shown. */
  index: number
  /** A loader was made for (another) stack: the view goes back to its start. */
  onSeries: () => void
}

export interface Frames {
  /** The loader of this stack (peek answers from the page's cache). */
  loader: { current: FrameLoader | null }
  /** The shown slice's own pixels, null while they load. */
  pixels: PixelData | null
  /** Why the shown slice could not be loaded, in Chinese. */
  error: string | null
}

/** The frames of one stack: the shown slice loaded (its neighbours fetched ahead) into the cache. */
export function useFrames(input: FramesInput): Frames {
  const { studyUid, slices, startIndex, cache, index } = input
  const loader = useRef<FrameLoader | null>(null)
  const onSeries = useRef(input.onSeries)
  onSeries.current = input.onSeries
  /** The last frame that arrived, with the slice it belongs to. */
  const [loaded, setLoaded] = useState<{ key: string; pixels: PixelData } | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    const created = createFrameLoader(slices, cache, (sliceInfo, frame) =>
      fetchFrame(studyUid, sliceInfo.seriesUid, sliceInfo.sopInstanceUid, frame),
    )
    loader.current = created
    onSeries.current()
    return () => created.dispose()
  }, [slices, startIndex, studyUid, cache])

  useEffect(() => {
    const current = loader.current
    if (!current) return undefined
    let live = true
    setError(null)
    const wanted = slices[index]
    const key = wanted ? sliceKey(wanted) : ''
    const cached = current.peek(index)
    if (cached) setLoaded({ key, pixels: cached })
    else {
      current.load(index).then(
        (arrived) => {
          if (live) setLoaded({ key, pixels: arrived })
        },
        (failure: unknown) => {
          if (!live) return
          setError(
            failure instanceof Error && /[\u4e00-\u9fa5]/.test(failure.message)
              ? failure.message
              : '图像加载失败，请稍后重试',
          )
        },
      )
    }
    current.prefetch(index)
    return () => {
      live = false
    }
  }, [index, slices])

  // Only the shown slice's own pixels: while the next one loads, the last frame must not be
  // rendered, probed or measured as if it were that slice (with its renderer, size and values).
  // A slice already in the cache is read here, so a slice change paints in the same commit
  // instead of after one more render.
  const shown = Math.min(index, slices.length - 1)
  const slice = slices[shown]
  const pixels =
    loaded && slice && loaded.key === sliceKey(slice)
      ? loaded.pixels
      : (loader.current?.peek(shown) ?? null)
  return { loader, pixels, error }
}
