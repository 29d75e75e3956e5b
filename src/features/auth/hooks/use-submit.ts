import { useCallback, useEffect, useRef, useState } from 'react'
import { errorText } from '../error-text'

export interface Submit {
  submitting: boolean
  /** The server's refusal of the last attempt, shown above the button. */
  error: string | null
  /** Runs `task` unless one is running; a failure keeps everything typed and shows its message. */
  run: (task: () => Promise<void>) => void
  setError: (error: string | null) => void
}

export function useSubmit(fallback?: string): Submit {
  const [submitting, setSubmitting] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const busy = useRef(false)
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  const run = useCallback(
    (task: () => Promise<void>) => {
      // A ref as well as state: two taps in one frame must not send twice.
      if (busy.current) return
      busy.current = true
      setSubmitting(true)
      setError(null)
      task().then(
        () => {
          busy.current = false
          if (alive.current) setSubmitting(false)
        },
        (failure: unknown) => {
          busy.current = false
          if (!alive.current) return
          setSubmitting(false)
          setError(errorText(failure, fallback))
        },
      )
    },
    [fallback],
  )

  return { submitting, error, run, setError }
}
