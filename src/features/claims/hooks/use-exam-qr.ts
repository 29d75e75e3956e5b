import { useCallback, useEffect, useRef, useState } from 'react'
import { useResource } from '@/hooks/use-resource'
import { issueExamQrCode } from '@/services/claims'

/** A new code is fetched this long before the shown one ends, so the one on screen never lapses. */
export const QR_REFRESH_AHEAD_MS = 15_000

export type ExamQrState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; content: string; expiresAt: number; secondsLeft: number }
  | { status: 'error'; message: string }

interface ExamQrCode {
  content: string
  /** When it ends (ms, local clock). */
  expiresAt: number
  ttlSeconds: number
}

/**
 * The owner's 5-minute exam code while `active`: fetched on opening (through useResource), counted
 * down every second, and replaced automatically shortly before it ends (the server's time decides
 * the end; the local clock only counts). Closing stops everything. The clock and the quiet refresh
 * are this hook's own: they decide when the one code is asked again.
 */
export function useExamQr(examId: string, active: boolean) {
  /** The code on screen, read by the clock and by a failed quiet refresh. */
  const shown = useRef<ExamQrCode | null>(null)
  /** The next load is a background refresh (not one the person sees as loading). */
  const quiet = useRef(false)
  /**
   * The load in flight (its number; 0 when none): the clock does not ask again meanwhile. Numbered so
   * that a load dropped when the sheet closed, ending late, does not clear the flag of the newer one.
   */
  const inFlight = useRef(0)
  const loads = useRef(0)
  /** No background retry before this time (ms), so a failing network is not asked every second. */
  const nextTry = useRef(0)
  const [now, setNow] = useState(() => Date.now())

  const code = useResource(
    active ? examId : null,
    async (): Promise<ExamQrCode> => {
      const background = quiet.current
      quiet.current = false
      const mine = ++loads.current
      inFlight.current = mine
      nextTry.current = Date.now() + 5000
      try {
        // The server answers its own expiry; the phone's clock may be wrong, so only the duration
        // (ttlSeconds) is trusted, counted from when the answer arrived.
        const issued = await issueExamQrCode(examId, { quietOffline: true })
        return {
          content: issued.content,
          expiresAt: Date.now() + issued.ttlSeconds * 1000,
          ttlSeconds: issued.ttlSeconds,
        }
      } catch (error) {
        // A failed background refresh keeps the code shown while it is still valid.
        const current = shown.current
        if (background && current !== null && current.expiresAt > Date.now()) return current
        throw error
      } finally {
        if (inFlight.current === mine) inFlight.current = 0
      }
    },
    { errorMessage: '二维码获取失败，请重试' },
  )
  shown.current = code.status === 'ready' ? code.data : null

  const { reload, restart } = code
  useEffect(() => {
    if (!active) return undefined
    const timer = setInterval(() => {
      setNow(Date.now())
      const ends = shown.current?.expiresAt
      if (ends === undefined || inFlight.current !== 0) return
      if (ends - Date.now() <= QR_REFRESH_AHEAD_MS && Date.now() >= nextTry.current) {
        quiet.current = true
        void reload()
      }
    }, 1000)
    return () => clearInterval(timer)
  }, [active, reload])

  const retry = useCallback(() => {
    if (inFlight.current === 0) void restart()
  }, [restart])

  let state: ExamQrState
  if (code.status === 'idle') state = { status: 'idle' }
  else if (code.status === 'error') state = { status: 'error', message: code.message }
  else if (code.status === 'loading') state = { status: 'loading' }
  else {
    const { content, expiresAt, ttlSeconds } = code.data
    const leftMs = expiresAt - Math.max(now, expiresAt - ttlSeconds * 1000)
    // The code on screen ended before a new one came: loading until it does.
    state =
      leftMs <= 0
        ? { status: 'loading' }
        : { status: 'ready', content, expiresAt, secondsLeft: Math.ceil(leftMs / 1000) }
  }
  return { state, retry }
}

/** 4:59 */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds))
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`
}
