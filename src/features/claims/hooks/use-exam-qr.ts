import { useCallback, useEffect, useRef, useState } from 'react'
import { describeError } from '@/services/api'
import { issueExamQrCode } from '@/services/claims'

/** A new code is fetched this long before the shown one ends, so the one on screen never lapses. */
export const QR_REFRESH_AHEAD_MS = 15_000

export type ExamQrState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; content: string; expiresAt: number; secondsLeft: number }
  | { status: 'error'; message: string }

/**
 * The owner's 5-minute exam code while `active`: fetched on opening, counted down every second, and
 * replaced automatically shortly before it ends (the server's time decides the end; the local clock
 * only counts). Closing stops everything.
 */
export function useExamQr(examId: string, active: boolean) {
  const [state, setState] = useState<ExamQrState>({ status: 'idle' })
  const timer = useRef<ReturnType<typeof setInterval> | null>(null)
  const generation = useRef(0)
  /** The generation whose request is in flight (a closed and reopened sheet asks afresh). */
  const loading = useRef<number | null>(null)
  /** No background retry before this time (ms), so a failing network is not asked every second. */
  const nextTry = useRef(0)
  /** When the code on screen ends (ms, local clock); null without one. */
  const expiry = useRef<number | null>(null)

  const stop = useCallback(() => {
    if (timer.current !== null) clearInterval(timer.current)
    timer.current = null
  }, [])

  const load = useCallback(
    (quiet: boolean) => {
      const mine = generation.current
      if (loading.current === mine) return
      loading.current = mine
      nextTry.current = Date.now() + 5000
      if (!quiet) setState({ status: 'loading' })
      // The server answers its own expiry; the phone's clock may be wrong, so only the duration
      // (ttlSeconds) is trusted, counted from when the answer arrived.
      issueExamQrCode(examId, { quietOffline: true }).then(
        (code) => {
          if (loading.current === mine) loading.current = null
          if (mine !== generation.current) return
          const expiresAt = Date.now() + code.ttlSeconds * 1000
          expiry.current = expiresAt
          setState({
            status: 'ready',
            content: code.content,
            expiresAt,
            secondsLeft: code.ttlSeconds,
          })
        },
        (error: unknown) => {
          if (loading.current === mine) loading.current = null
          if (mine !== generation.current) return
          setState((current) =>
            // A failed background refresh keeps the code shown while it is still valid.
            quiet && current.status === 'ready' && current.expiresAt > Date.now()
              ? current
              : { status: 'error', message: describeError(error, '二维码获取失败，请重试') },
          )
        },
      )
    },
    [examId],
  )

  useEffect(() => {
    if (!active) {
      generation.current += 1
      stop()
      expiry.current = null
      setState({ status: 'idle' })
      return
    }
    load(false)
    timer.current = setInterval(() => {
      const ends = expiry.current
      if (ends === null) return
      const leftMs = ends - Date.now()
      if (leftMs <= QR_REFRESH_AHEAD_MS && Date.now() >= nextTry.current) load(true)
      setState((current) => {
        if (current.status !== 'ready' || current.expiresAt !== ends) return current
        if (leftMs <= 0) return { status: 'loading' }
        return { ...current, secondsLeft: Math.ceil(leftMs / 1000) }
      })
    }, 1000)
    return () => {
      generation.current += 1
      stop()
    }
  }, [active, load, stop])

  const retry = useCallback(() => load(false), [load])
  return { state, retry }
}

/** 4:59 */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds))
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`
}
