import { useCallback, useRef, useState } from 'react'
import { showToast } from '@/platform/ui'
import { currentPayClient, requestWechatPayment } from '@/platform/wechat-pay'
import { describeError } from '@/services/api'
import {
  CONSULT_MESSAGES,
  confirmDemoPayment,
  payConsultation,
  syncConsultPayment,
} from '@/services/consultations'

/** The 演示支付 sheet: what it confirms, and for how much. */
export interface DemoPayment {
  consultationId: string
  token: string
  amountFen: number
}

export interface PayModel {
  /** A payment is being started or confirmed. */
  busy: boolean
  demo: DemoPayment | null
  start: (consultationId: string) => Promise<void>
  confirmDemo: () => Promise<void>
  /** The 演示支付 sheet closed without paying: the order waits in 咨询详情 (去支付). */
  closeDemo: () => void
}

/**
 * Paying one consultation: payConsultation says how. WeChat Pay (JSAPI) in the mini-program or
 * WeChat's browser, then syncConsultPayment asks the server for the outcome (a notification may be
 * late); in any other browser the person is told to open WeChat. The demo provider opens the
 * 演示支付 sheet, whose 确认支付 runs confirmDemoPayment through the same settlement. 支付未配置
 * and other refusals are the server's own words. `onFinished` runs after paying (paid) or when the
 * payment is left for later, so the screen can move on to 咨询详情 either way.
 */
export function usePay(onFinished: (consultationId: string, paid: boolean) => void): PayModel {
  const [busy, setBusy] = useState(false)
  const [demo, setDemo] = useState<DemoPayment | null>(null)
  const confirming = useRef(false)

  const start = useCallback(
    async (consultationId: string) => {
      const client = currentPayClient()
      setBusy(true)
      try {
        let begun
        try {
          begun = await payConsultation({ consultationId, client })
        } catch (error) {
          showToast(describeError(error, CONSULT_MESSAGES.paymentUnavailable))
          return onFinished(consultationId, false)
        }
        if (begun.kind === 'demo') {
          if (!begun.demoToken) {
            showToast(CONSULT_MESSAGES.demoPaymentInvalid)
            return onFinished(consultationId, false)
          }
          setDemo({ consultationId, token: begun.demoToken, amountFen: begun.amountFen })
          return
        }
        if (client === 'h5') {
          showToast(CONSULT_MESSAGES.paymentWechatOnly)
          return onFinished(consultationId, false)
        }
        if (!begun.params) {
          showToast(CONSULT_MESSAGES.paymentUnavailable)
          return onFinished(consultationId, false)
        }
        const outcome = await requestWechatPayment(begun.params)
        if (outcome === 'cancelled') {
          showToast('已取消支付，可在咨询详情中继续支付')
          return onFinished(consultationId, false)
        }
        try {
          const detail = await syncConsultPayment(consultationId)
          const paid = detail.state !== 'pending-payment'
          if (!paid) showToast('支付结果确认中，请稍后刷新')
          onFinished(consultationId, paid)
        } catch (error) {
          showToast(describeError(error, '支付结果确认中，请稍后刷新'))
          onFinished(consultationId, false)
        }
      } finally {
        setBusy(false)
      }
    },
    [onFinished],
  )

  const confirmDemo = useCallback(async () => {
    if (!demo || confirming.current) return
    confirming.current = true
    setBusy(true)
    try {
      await confirmDemoPayment(demo.consultationId, demo.token)
      setDemo(null)
      showToast('支付成功')
      onFinished(demo.consultationId, true)
    } catch (error) {
      showToast(describeError(error, CONSULT_MESSAGES.demoPaymentInvalid))
    } finally {
      confirming.current = false
      setBusy(false)
    }
  }, [demo, onFinished])

  const closeDemo = useCallback(() => {
    if (!demo) return
    setDemo(null)
    onFinished(demo.consultationId, false)
  }, [demo, onFinished])

  return { busy, demo, start, confirmDemo, closeDemo }
}
