/**
 * The cine (播放): which slice the next tick shows and the frame rates 帧/秒 steps through. Pure, so
 * the waiting rule is tested without timers; hooks/use-playback.ts runs it on an interval.
 */

export const FRAME_RATES = [5, 10, 15, 25] as const
export const DEFAULT_FRAME_RATE = 10

/** The rate after `fps` when 帧/秒 is tapped, round to the first. */
export function nextFrameRate(fps: number): number {
  return FRAME_RATES[
    (FRAME_RATES.indexOf(fps as (typeof FRAME_RATES)[number]) + 1) % FRAME_RATES.length
  ]!
}

export interface CineTick {
  /** The slice to show (the same one while the next is not here yet). */
  index: number
  /** The slice to load first, when the cine is waiting for it. */
  load: number | null
}

/**
 * One tick from `index` in a stack of `count`, wrapping round: it advances only onto a frame
 * already here, so faster than the network the cine waits for the prefetch instead of cancelling
 * every load and showing nothing.
 */
export function cineTick(
  index: number,
  count: number,
  isHere: (index: number) => boolean,
): CineTick {
  const next = (index + 1) % count
  return isHere(next) ? { index: next, load: null } : { index, load: next }
}
