import { useCallback, useEffect, useRef, useState } from 'react'
import { createQrLogin, pollQrLogin, type Session } from '@/services/auth'
import { describeError } from '@/services/api'
import { HttpError } from '@/services/http'
import { qrDataUrl } from '../desktop'

/** The desktop learns the phone's answer within 2 s (issue 3); one poll a second does that. */
export const QR_POLL_MS = 1000

export type QrView =
  | { status: 'loading' }
  | { status: 'pending' | 'scanned'; image: string }
  | { status: 'refused' | 'expired'; image: string | null }
  | { status: 'confirmed' }
  | { status: 'error'; message: string }

export const QR_TEXT = {
  pending: '请使用医影通 App 或小程序扫码登录',
  scanned: '已扫码，请在手机上确认',
  refused: '已拒绝登录，可刷新二维码重试',
  expired: '二维码已过期',
  confirmed: '已确认，正在登录...',
} as const

export interface QrLogin {
  view: QrView
  refresh: () => void
}

/**
 * One login request at a time: create it, draw it, poll until the phone answers or it expires.
 * Polling stops when the panel is hidden or unmounted, and every answer that arrives after that is
 * ignored (`generation`), so an old request can never sign anyone in.
 */
export function useQrLogin(active: boolean, onSession: (session: Session) => void): QrLogin {
  const [view, setView] = useState<QrView>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const generation = useRef(0)
  const onSessionRef = useRef(onSession)
  onSessionRef.current = onSession

  useEffect(() => {
    if (!active) return undefined
    generation.current += 1
    const mine = generation.current
    const current = () => generation.current === mine
    let timer: ReturnType<typeof setTimeout> | undefined
    let image: string | null = null
    setView({ status: 'loading' })

    const fail = (error: unknown) => {
      if (!current()) return
      // An unknown or used-up request answers 404/410: to the person that is an expired code.
      if (error instanceof HttpError && (error.statusCode === 404 || error.statusCode === 410)) {
        setView({ status: 'expired', image })
        return
      }
      setView({ status: 'error', message: describeError(error, '二维码加载失败') })
    }

    // Expiry is the server's to say: a phone's clock may be minutes off the server's.
    const poll = (id: string, secret: string) => {
      timer = setTimeout(() => {
        if (!current()) return
        pollQrLogin(id, secret, { loading: false, quietOffline: true }).then((answer) => {
          if (!current()) return
          if (answer.status === 'confirmed' && answer.session) {
            setView({ status: 'confirmed' })
            generation.current += 1
            onSessionRef.current(answer.session)
            return
          }
          if (answer.status === 'refused' || answer.status === 'expired') {
            setView({ status: answer.status, image })
            return
          }
          // 'confirmed' without a session was collected already; treat it as used up.
          if (answer.status === 'confirmed') {
            setView({ status: 'expired', image })
            return
          }
          if (image !== null) setView({ status: answer.status, image })
          poll(id, secret)
        }, fail)
      }, QR_POLL_MS)
    }

    createQrLogin({ loading: false })
      .then(async (ticket) => {
        const drawn = await qrDataUrl(ticket.content)
        if (!current()) return
        image = drawn
        setView({ status: 'pending', image: drawn })
        poll(ticket.id, ticket.pollSecret)
      })
      .catch(fail)

    return () => {
      generation.current += 1
      if (timer !== undefined) clearTimeout(timer)
    }
  }, [active, attempt])

  const refresh = useCallback(() => setAttempt((n) => n + 1), [])
  return { view, refresh }
}
