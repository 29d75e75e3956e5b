export type DebouncedFunction<A extends unknown[]> = ((...args: A) => void) & {
  /** Drops a pending call and ends the quiet period. */
  cancel(): void
}

/**
 * Runs `fn` once calls have stopped for `wait` ms (default 500, SPEC section 9), e.g. for search
 * as you type.
 *
 * - not immediate (default): `fn` runs `wait` ms after the last call, with that call's arguments.
 * - immediate: the first call of a burst runs at once; later calls only extend the quiet period,
 *   and the next call after `wait` quiet ms runs at once again.
 *
 * Each call of `debounce` makes its own timer, so two debounced handlers never cancel each other
 * (uview kept one module-wide timer shared by every caller).
 */
export function debounce<A extends unknown[]>(
  fn: (...args: A) => unknown,
  wait = 500,
  immediate = false,
): DebouncedFunction<A> {
  let timer: ReturnType<typeof setTimeout> | undefined

  function debounced(this: unknown, ...args: A): void {
    const callNow = immediate && timer === undefined
    if (timer !== undefined) clearTimeout(timer)
    if (immediate) {
      timer = setTimeout(() => {
        timer = undefined
      }, wait)
      if (callNow) fn.apply(this, args)
      return
    }
    timer = setTimeout(() => {
      timer = undefined
      fn.apply(this, args)
    }, wait)
  }

  debounced.cancel = (): void => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }

  return debounced
}
