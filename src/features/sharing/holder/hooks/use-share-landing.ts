import { useCallback, useEffect, useState } from 'react'
import { describeError } from '@/services/api'
import {
  GRANT_MESSAGES,
  PICKUP_CODE_LENGTH,
  getShare,
  isShareEnded,
  openShare,
  type ReceivedGrant,
  type SharePreview,
} from '@/services/shares'

export type LandingState =
  | { status: 'loading' }
  | { status: 'error'; message: string; ended: boolean }
  | { status: 'ready'; preview: SharePreview }

export interface ShareLanding {
  state: LandingState
  code: string
  setCode: (code: string) => void
  /** Why 查看 failed (wrong code, locked), said inline under the code. */
  openError: string
  opening: boolean
  /** The grant ended between the preview and 查看. */
  ended: boolean
  open: () => void
  reload: () => void
}

/**
 * The link's landing: the preview (never counted), then 查看 with the 提取码, which counts one
 * opening and hands the grant to `onOpened`.
 */
export function useShareLanding(
  token: string,
  onOpened: (grant: ReceivedGrant) => void,
): ShareLanding {
  const [state, setState] = useState<LandingState>({ status: 'loading' })
  const [code, setCodeState] = useState('')
  const [openError, setOpenError] = useState('')
  const [opening, setOpening] = useState(false)
  const [ended, setEnded] = useState(false)
  const [generation, setGeneration] = useState(0)

  useEffect(() => {
    let current = true
    setState({ status: 'loading' })
    getShare(token).then(
      (preview) => current && setState({ status: 'ready', preview }),
      (error: unknown) =>
        current &&
        setState({
          status: 'error',
          message: describeError(error, '加载失败，请检查网络后重试'),
          ended: isShareEnded(error) || describeError(error) === GRANT_MESSAGES.linkInvalid,
        }),
    )
    return () => {
      current = false
    }
  }, [token, generation])

  const setCode = useCallback((value: string) => {
    setCodeState(value.replace(/\D/g, '').slice(0, PICKUP_CODE_LENGTH))
    setOpenError('')
  }, [])

  const needsCode = state.status === 'ready' && state.preview.needsPickupCode
  const open = useCallback(() => {
    if (opening) return
    if (needsCode && code.length !== PICKUP_CODE_LENGTH) {
      setOpenError(GRANT_MESSAGES.pickupRequired)
      return
    }
    setOpening(true)
    setOpenError('')
    openShare(token, needsCode ? code : undefined).then(
      (grant) => {
        setOpening(false)
        onOpened(grant)
      },
      (error: unknown) => {
        setOpening(false)
        if (isShareEnded(error)) setEnded(true)
        else setOpenError(describeError(error, '打开失败，请稍后重试'))
      },
    )
  }, [code, needsCode, onOpened, opening, token])

  const reload = useCallback(() => setGeneration((n) => n + 1), [])
  return { state, code, setCode, openError, opening, ended, open, reload }
}
