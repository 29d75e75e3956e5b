import { useCallback, useEffect, useRef, useState } from 'react'
import { showToast } from '@/platform/ui'
import {
  bindIdCard,
  describeError,
  listBoundCards,
  refreshProfile,
  type BoundCard,
} from '@/services/profile'
import { idCardError, normaliseIdCard, realNameError } from '../validation'
import { useField, type FieldModel } from './use-field'

export type IdCardState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'form' }
  | { status: 'bound'; card: BoundCard }

export interface IdCardModel {
  state: IdCardState
  realName: FieldModel
  idNumber: FieldModel
  submitting: boolean
  /** The server refused the card: its message. */
  formError: string | null
  submit: () => void
  retry: () => void
}

/**
 * 实名认证: shows the bound card (masked by the server) or the form. The full number lives only in
 * this page's state while typed and is cleared once the server has it; it never reaches a store
 * or a log.
 */
export function useIdCard(): IdCardModel {
  const [state, setState] = useState<IdCardState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [submitting, setSubmitting] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)
  const realName = useField(realNameError)
  const idNumber = useField(idCardError, normaliseIdCard)
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  useEffect(() => {
    setState({ status: 'loading' })
    listBoundCards().then(
      (cards) => {
        if (!alive.current) return
        const card = cards.find((item) => item.kind === 'idcard')
        setState(card ? { status: 'bound', card } : { status: 'form' })
      },
      (error: unknown) =>
        alive.current && setState({ status: 'error', message: describeError(error, '加载失败') }),
    )
  }, [attempt])

  const submit = useCallback(() => {
    if (submitting) return
    const nameOk = realName.validate()
    const numberOk = idNumber.validate()
    if (!nameOk || !numberOk) return
    setSubmitting(true)
    setFormError(null)
    bindIdCard(realName.value.trim(), idNumber.value).then(
      (card) => {
        if (!alive.current) return
        idNumber.reset()
        realName.reset()
        setSubmitting(false)
        setState({ status: 'bound', card })
        showToast('实名认证成功')
        // 我的 and 设置 show 已认证 from the profile.
        refreshProfile({ loading: false }).catch(() => undefined)
      },
      (error: unknown) => {
        if (!alive.current) return
        setSubmitting(false)
        setFormError(describeError(error))
      },
    )
  }, [submitting, realName, idNumber])

  return {
    state,
    realName,
    idNumber,
    submitting,
    formError,
    submit,
    retry: () => setAttempt((n) => n + 1),
  }
}
