import { useEffect, useRef, useState } from 'react'
import { ID_CARD_RULES, REAL_NAME_RULES, normaliseIdCard } from '@/components/form/rules'
import { useForm, type FieldProps } from '@/components/form/use-form'
import { showToast } from '@/platform/ui'
import {
  bindIdCard,
  describeError,
  listBoundCards,
  refreshProfile,
  type BoundCard,
} from '@/services/profile'

export type IdCardState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'form' }
  | { status: 'bound'; card: BoundCard }

export interface IdCardModel {
  state: IdCardState
  realName: FieldProps
  idNumber: FieldProps
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
  const form = useForm({
    realName: { rules: REAL_NAME_RULES },
    idNumber: { rules: ID_CARD_RULES, normalise: normaliseIdCard },
  })
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

  const submit = () => {
    const { values } = form
    form.submit(async () => {
      const card = await bindIdCard(values.realName.trim(), values.idNumber)
      if (!alive.current) return
      form.setValue('idNumber', '')
      form.setValue('realName', '')
      setState({ status: 'bound', card })
      showToast('实名认证成功')
      // 我的 and 设置 show the card's state from the profile.
      refreshProfile({ loading: false }).catch(() => undefined)
    })
  }

  return {
    state,
    realName: form.field('realName'),
    idNumber: form.field('idNumber'),
    submitting: form.submitting,
    formError: form.submitError,
    submit,
    retry: () => setAttempt((n) => n + 1),
  }
}
