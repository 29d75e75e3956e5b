import { useCallback, useEffect, useRef, useState } from 'react'

export interface Countdown {
  /** Whole seconds left; 0 when idle. */
  remaining: number
  start: (seconds: number) => void
}

/**
 * Counts down to an end time rather than counting ticks, so a timer the browser throttles in a
 * background tab still ends on time.
 */
export function useCountdown(): Countdown {
  const [remaining, setRemaining] = useState(0)
  const timer = useRef<ReturnType<typeof setInterval> | null>(null)

  const stop = useCallback(() => {
    if (timer.current !== null) clearInterval(timer.current)
    timer.current = null
  }, [])

  useEffect(() => stop, [stop])

  const start = useCallback(
    (seconds: number) => {
      stop()
      const whole = Math.max(0, Math.ceil(seconds))
      setRemaining(whole)
      if (whole === 0) return
      const end = Date.now() + whole * 1000
      timer.current = setInterval(() => {
        const left = Math.max(0, Math.ceil((end - Date.now()) / 1000))
        setRemaining(left)
        if (left === 0) stop()
      }, 1000)
    },
    [stop],
  )

  return { remaining, start }
}
