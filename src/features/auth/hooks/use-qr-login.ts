import { useCallback, useEffect, useRef, useState } from 'react'
import { useResource } from '@/hooks/use-resource'
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

/** An unknown or used-up request answers 404/410: to the person that is an expired code. */
function isGone(error: unknown): boolean {
  return error instanceof HttpError && (error.statusCode === 404 || error.statusCode === 410)
}

/**
 * One login request at a time: create it and draw it (the one thing loaded, through useResource),
 * then poll until the phone answers or it expires (the flow after it is this hook's own). Polling
 * stops when the panel is hidden or unmounted, and every answer that arrives after that is ignored
 * (`generation`), so an old request can never sign anyone in.
 */
export function useQrLogin(active: boolean, onSession: (session: Session) => void): QrLogin {
  const [attempt, setAttempt] = useState(0)
  const ticket = useResource(
    active ? String(attempt) : null,
    async () => {
      const created = await createQrLogin({ loading: false })
      return { id: created.id, secret: created.pollSecret, image: await qrDataUrl(created.content) }
    },
    { errorMessage: '二维码加载失败' },
  )
  /** The phone's answer so far, for the ticket it is about. */
  const [answer, setAnswer] = useState<{ of: unknown; view: QrView } | null>(null)
  const generation = useRef(0)
  const onSessionRef = useRef(onSession)
  onSessionRef.current = onSession

  const drawn = ticket.status === 'ready' ? ticket.data : null
  useEffect(() => {
    if (drawn === null) return undefined
    generation.current += 1
    const mine = generation.current
    const current = () => generation.current === mine
    const { id, secret, image } = drawn
    const show = (view: QrView) => setAnswer({ of: drawn, view })
    let timer: ReturnType<typeof setTimeout> | undefined

    const fail = (error: unknown) => {
      if (!current()) return
      if (isGone(error)) show({ status: 'expired', image })
      else show({ status: 'error', message: describeError(error, '二维码加载失败') })
    }

    // Expiry is the server's to say: a phone's clock may be minutes off the server's.
    const poll = () => {
      timer = setTimeout(() => {
        if (!current()) return
        pollQrLogin(id, secret, { loading: false, quietOffline: true }).then((answer) => {
          if (!current()) return
          if (answer.status === 'confirmed' && answer.session) {
            show({ status: 'confirmed' })
            generation.current += 1
            onSessionRef.current(answer.session)
            return
          }
          if (answer.status === 'refused' || answer.status === 'expired') {
            show({ status: answer.status, image })
            return
          }
          // 'confirmed' without a session was collected already; treat it as used up.
          if (answer.status === 'confirmed') {
            show({ status: 'expired', image })
            return
          }
          show({ status: answer.status, image })
          poll()
        }, fail)
      }, QR_POLL_MS)
    }
    poll()

    return () => {
      generation.current += 1
      if (timer !== undefined) clearTimeout(timer)
    }
  }, [drawn])

  const refresh = useCallback(() => setAttempt((n) => n + 1), [])
  let view: QrView
  if (drawn !== null) {
    view =
      answer !== null && answer.of === drawn
        ? answer.view
        : { status: 'pending', image: drawn.image }
  } else if (ticket.status === 'error') {
    view = isGone(ticket.error)
      ? { status: 'expired', image: null }
      : { status: 'error', message: ticket.message }
  } else {
    view = { status: 'loading' }
  }
  return { view, refresh }
}
