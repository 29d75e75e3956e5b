import { useEffect, useRef, useState } from 'react'
import { cineTick, DEFAULT_FRAME_RATE, nextFrameRate } from '../playback'

export interface PlaybackInput {
  /** The stack: another one stops the cine. */
  stack: unknown
  /** Slices in the stack: a single image does not play. */
  count: number
  /** The slice shown now (read at each tick, after any step the person took meanwhile). */
  current: () => number
  /** Whether a slice's frame is already here. */
  isHere: (index: number) => boolean
  load: (index: number) => void
  show: (index: number) => void
}

export interface Playback {
  playing: boolean
  fps: number
  /** 播放 / 暂停 */
  toggle: () => void
  /** 帧/秒: the next rate. */
  nextRate: () => void
}

/** The cine: a tick every 1/fps seconds while playing (cineTick decides where it goes). */
export function usePlayback(input: PlaybackInput): Playback {
  const [playing, setPlaying] = useState(false)
  const [fps, setFps] = useState(DEFAULT_FRAME_RATE)
  const latest = useRef(input)
  latest.current = input
  const { count, stack } = input

  useEffect(() => setPlaying(false), [stack])

  useEffect(() => {
    if (!playing || count < 2) return undefined
    const timer = setInterval(() => {
      const { current, isHere, load, show } = latest.current
      const tick = cineTick(current(), count, isHere)
      if (tick.load !== null) load(tick.load)
      show(tick.index)
    }, 1000 / fps)
    return () => clearInterval(timer)
  }, [playing, fps, count])

  return {
    playing,
    fps,
    toggle: () => setPlaying((p) => !p),
    nextRate: () => setFps(nextFrameRate),
  }
}
