import { useCallback, useEffect, useRef, useState } from 'react'
import { useResource } from '@/hooks/use-resource'
import {
  answerQrLogin,
  describeError,
  getQrLoginRequest,
  type QrLoginDetails,
} from '@/services/profile'
import { useSessionStore } from '@/stores/session-store'

export type ScanLoginState =
  | { status: 'signed-out' }
  | { status: 'invalid' }
  | { status: 'loading' }
  | { status: 'ready'; request: QrLoginDetails; busy: boolean }
  | { status: 'approved' }
  | { status: 'refused' }
  /** The server refused: expired, already answered, someone else's request... */
  | { status: 'error'; message: string }

export interface ScanLoginView {
  state: ScanLoginState
  confirm: () => void
  refuse: () => void
}

export const INVALID_QR_MESSAGE = '二维码无效，请重新扫描电脑上的二维码'

/**
 * The phone side of scan login: register the scan (the desktop then shows 已扫码), show who is
 * asking, and send the person's answer once.
 */
export function useScanLogin(id: string | undefined): ScanLoginView {
  const signedIn = useSessionStore((state) => state.token !== null)
  const key = id && signedIn ? id : null
  // Only a request this app's scanner registered (see getQrLoginRequest); never one from the URL.
  const request = useResource(key, () => getQrLoginRequest(id ?? ''))
  // The request is the one thing loaded; answering it is this page's own step (for this key).
  // While the answer is on its way its state is null (the request shows, busy).
  const [answered, setAnswered] = useState<{ key: string; state: ScanLoginState | null } | null>(
    null,
  )
  const alive = useRef(true)
  const answering = useRef(false)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  // Signed out meanwhile: signing in again asks afresh, as on opening.
  useEffect(() => {
    if (key === null) setAnswered(null)
  }, [key])

  const answer = useCallback(
    (approve: boolean) => {
      if (!id || answering.current) return
      answering.current = true
      const settle = (state: ScanLoginState) => alive.current && setAnswered({ key: id, state })
      setAnswered({ key: id, state: null })
      answerQrLogin(id, approve).then(
        () => settle({ status: approve ? 'approved' : 'refused' }),
        (error: unknown) => settle({ status: 'error', message: describeError(error) }),
      )
    },
    [id],
  )

  const mine = answered !== null && answered.key === key
  const step = mine ? answered.state : null
  const state: ScanLoginState = !id
    ? { status: 'invalid' }
    : !signedIn
      ? { status: 'signed-out' }
      : step
        ? step
        : request.status === 'ready'
          ? { status: 'ready', request: request.data, busy: mine }
          : request.status === 'error'
            ? { status: 'error', message: request.message }
            : { status: 'loading' }

  return { state, confirm: () => answer(true), refuse: () => answer(false) }
}
