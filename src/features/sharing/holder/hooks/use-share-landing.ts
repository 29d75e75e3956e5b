import { useCallback, useState } from 'react'
import { REASONS } from '@contract/reasons'
import { useResource, type Resource } from '@/hooks/use-resource'
import { describeError } from '@/services/api'
import { errorReason } from '@/services/http'
import {
  GRANT_MESSAGES,
  PICKUP_CODE_LENGTH,
  getShare,
  isShareEnded,
  openShare,
  type ReceivedGrant,
  type SharePreview,
} from '@/services/shares'

export interface ShareLanding {
  preview: Resource<SharePreview>
  code: string
  setCode: (code: string) => void
  /** Why 查看 failed (wrong code, locked), said inline under the code. */
  openError: string
  opening: boolean
  /** The grant ended between the preview and 查看. */
  ended: boolean
  open: () => void
}

/** The preview's error means the link itself is gone (ended, or never valid): no 重试. */
export function isLinkGone(error: unknown): boolean {
  return isShareEnded(error) || errorReason(error) === REASONS.grantLinkInvalid
}

/**
 * The link's landing: the preview (never counted), then 查看 with the 提取码, which counts one
 * opening and hands the grant to `onOpened`.
 */
export function useShareLanding(
  token: string,
  onOpened: (grant: ReceivedGrant) => void,
): ShareLanding {
  const preview = useResource(token, () => getShare(token), {
    errorMessage: '加载失败，请检查网络后重试',
  })
  const [code, setCodeState] = useState('')
  const [openError, setOpenError] = useState('')
  const [opening, setOpening] = useState(false)
  const [ended, setEnded] = useState(false)

  const setCode = useCallback((value: string) => {
    setCodeState(value.replace(/\D/g, '').slice(0, PICKUP_CODE_LENGTH))
    setOpenError('')
  }, [])

  const needsCode = preview.status === 'ready' && preview.data.needsPickupCode
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

  return { preview, code, setCode, openError, opening, ended, open }
}
