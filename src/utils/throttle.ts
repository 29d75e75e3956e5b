export type ThrottledFunction<A extends unknown[]> = ((...args: A) => void) & {
  /** Ends the current window and drops a pending trailing call. */
  cancel(): void
}

/**
 * Lets `fn` run at most once per `wait` ms (default 500, SPEC section 9), e.g. against double taps.
 *
 * - immediate (default): the first call runs at once; calls during the next `wait` ms are dropped.
 * - not immediate: the first call opens a window and `fn` runs when it closes, with the arguments
 *   of the last call made in the window; other calls in the window are merged into that one.
 *
 * Each call of `throttle` makes its own timer, so two throttled handlers never block each other
 * (uview kept one module-wide timer, and a tap on one button swallowed a tap on another).
 */
export function throttle<A extends unknown[]>(
  fn: (...args: A) => unknown,
  wait = 500,
  immediate = true,
): ThrottledFunction<A> {
  let timer: ReturnType<typeof setTimeout> | undefined
  let pendingArgs: A | undefined
  let pendingThis: unknown

  function throttled(this: unknown, ...args: A): void {
    if (immediate) {
      if (timer !== undefined) return
      timer = setTimeout(() => {
        timer = undefined
      }, wait)
      fn.apply(this, args)
      return
    }
    pendingArgs = args
    // The trailing call must run with the receiver of the last call, which only this alias keeps.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    pendingThis = this
    if (timer !== undefined) return
    timer = setTimeout(() => {
      timer = undefined
      const callArgs = pendingArgs
      const callThis = pendingThis
      pendingArgs = undefined
      pendingThis = undefined
      if (callArgs !== undefined) fn.apply(callThis, callArgs)
    }, wait)
  }

  throttled.cancel = (): void => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    pendingArgs = undefined
    pendingThis = undefined
  }

  return throttled
}
