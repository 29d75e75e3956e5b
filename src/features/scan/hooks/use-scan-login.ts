import { useCallback, useEffect, useRef, useState } from 'react'
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
  const [state, setState] = useState<ScanLoginState>(() =>
    !id ? { status: 'invalid' } : signedIn ? { status: 'loading' } : { status: 'signed-out' },
  )
  const alive = useRef(true)
  const answering = useRef(false)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  useEffect(() => {
    if (!id) return
    if (!signedIn) {
      setState({ status: 'signed-out' })
      return
    }
    setState({ status: 'loading' })
    // Only a request this app's scanner registered (see getQrLoginRequest); never one from the URL.
    getQrLoginRequest(id).then(
      (request) => alive.current && setState({ status: 'ready', request, busy: false }),
      (error: unknown) =>
        alive.current && setState({ status: 'error', message: describeError(error) }),
    )
  }, [id, signedIn])

  const answer = useCallback(
    (approve: boolean) => {
      if (!id || answering.current) return
      answering.current = true
      setState((current) => (current.status === 'ready' ? { ...current, busy: true } : current))
      answerQrLogin(id, approve).then(
        () => alive.current && setState({ status: approve ? 'approved' : 'refused' }),
        (error: unknown) =>
          alive.current && setState({ status: 'error', message: describeError(error) }),
      )
    },
    [id],
  )

  return { state, confirm: () => answer(true), refuse: () => answer(false) }
}
