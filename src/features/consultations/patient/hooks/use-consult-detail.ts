import { useDidShow } from '@tarojs/taro'
import { useCallback, useRef, useState } from 'react'
import { useResource } from '@/hooks/use-resource'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  adoptConsultation,
  cancelConsultation,
  complainConsultation,
  type ConsultDetail,
  type ConsultMessage,
  getConsultation,
  listConsultMessages,
  publishConsultation,
  rateConsultation,
  type RatingInput,
} from '@/services/consultations'
import { type PayModel, usePay } from '../../apply/hooks/use-pay'
import { useDeleteConsultation } from './use-my-consultations'

export interface ConsultDetailModel {
  status: 'loading' | 'error' | 'ready'
  message: string
  detail: ConsultDetail | null
  /** The expert's signed answers and addenda (the conversation keeps them; shown here too). */
  answers: ConsultMessage[]
  retry: () => void
  /** An action is in flight: its button is busy and the others wait. */
  busy: boolean
  pay: PayModel
  cancel: () => Promise<void>
  adopt: () => Promise<void>
  rate: (input: Omit<RatingInput, 'consultationId'>) => Promise<boolean>
  complain: (text: string) => Promise<boolean>
  setPublic: (visible: boolean) => Promise<void>
  remove: () => Promise<boolean>
}

/**
 * 咨询详情: the consultation as the server answers it, and what the person may do now
 * (`detail.actions` decides which buttons show; each action answers the new detail).
 */
export function useConsultDetail(id: string): ConsultDetailModel {
  const resource = useResource(id, () => getConsultation(id), {
    errorMessage: '咨询加载失败，请稍后重试',
  })
  const { reload, replace } = resource
  // Back from the conversation or a payment: the state may have moved.
  const shown = useRef(false)
  useDidShow(() => {
    if (shown.current) void reload()
    shown.current = true
  })
  const [busy, setBusy] = useState(false)
  const inFlight = useRef(false)
  const remove$ = useDeleteConsultation()

  const act = useCallback(
    async (run: () => Promise<ConsultDetail>, done?: string): Promise<boolean> => {
      if (inFlight.current) return false
      inFlight.current = true
      setBusy(true)
      try {
        replace(await run())
        if (done) showToast(done)
        return true
      } catch (error) {
        showToast(describeError(error))
        // The refusal may mean the state moved on (the expert accepted meanwhile): show it.
        void reload()
        return false
      } finally {
        inFlight.current = false
        setBusy(false)
      }
    },
    [replace, reload],
  )

  const pay = usePay(
    useCallback(() => {
      void reload()
    }, [reload]),
  )

  const detail = resource.status === 'ready' ? resource.data : null
  const answered = detail !== null && ['answered', 'completed'].includes(detail.state)
  const answers = useResource(answered ? `${id}:${detail.state}` : null, async () => {
    const page = await listConsultMessages({ consultationId: id, limit: 100 })
    return page.items.filter((message) => message.kind === 'answer' || message.kind === 'addendum')
  })

  const cancel = useCallback(async () => {
    if (!detail) return
    const paid = detail.state !== 'pending-payment'
    const ok = await showModal({
      title: '取消咨询',
      content: paid
        ? '专家尚未接诊，取消后支付的费用将全额原路退回。确定取消吗？'
        : '取消后订单关闭，需要时可重新申请。确定取消吗？',
      confirmText: '确定取消',
      cancelText: '再想想',
    })
    if (ok) await act(() => cancelConsultation(id), paid ? '已取消，退款处理中' : '已取消')
  }, [detail, act, id])

  const adopt = useCallback(async () => {
    const ok = await showModal({
      title: '采纳回复',
      content: '采纳后咨询完成，费用结算给专家，之后不能再追问。确定采纳吗？',
      confirmText: '采纳',
    })
    if (ok) await act(() => adoptConsultation(id), '已采纳')
  }, [act, id])

  const rate = useCallback(
    (input: Omit<RatingInput, 'consultationId'>) =>
      act(() => rateConsultation({ ...input, consultationId: id }), '感谢您的评价'),
    [act, id],
  )

  const complain = useCallback(
    (text: string) => act(() => complainConsultation(id, text), '投诉已提交，平台会尽快处理'),
    [act, id],
  )

  const setPublic = useCallback(
    async (visible: boolean) => {
      await act(() => publishConsultation(id, visible), visible ? '已公开到专家主页' : '已撤回公开')
    },
    [act, id],
  )

  const remove = useCallback(() => remove$(id), [remove$, id])

  return {
    status: resource.status,
    message: resource.status === 'error' ? resource.message : '',
    detail,
    answers: answers.status === 'ready' ? answers.data : [],
    retry: () => void reload(),
    busy: busy || pay.busy,
    pay,
    cancel,
    adopt,
    rate,
    complain,
    setPublic,
    remove,
  }
}
