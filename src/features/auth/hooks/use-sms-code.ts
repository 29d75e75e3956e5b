import { useCallback, useEffect, useRef, useState } from 'react'
import { showToast } from '@/platform/ui'
import { errorText } from '../error-text'
import { useCountdown } from './use-countdown'

/** Used when the server's answer carries no usable cooldown. */
export const DEFAULT_COOLDOWN_SECONDS = 60

export interface SmsCodeButton {
  /** 获取验证码, 发送中..., 59 秒后重发, 重新获取 */
  label: string
  disabled: boolean
  sending: boolean
  /** The server's refusal (rate limit, unknown phone), shown under the field. */
  error: string | null
  send: () => void
}

/**
 * The 获取验证码 button: `ready()` lets the form check the phone first (and show why not), then
 * `request()` sends; the countdown runs for the cooldown the server answered.
 */
export function useSmsCode(
  request: () => Promise<{ cooldownSeconds: number }>,
  ready: () => boolean = () => true,
): SmsCodeButton {
  const [sending, setSending] = useState(false)
  const [sent, setSent] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const countdown = useCountdown()
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  const send = useCallback(() => {
    if (sending || countdown.remaining > 0) return
    if (!ready()) return
    setSending(true)
    setError(null)
    request().then(
      (answer) => {
        if (!alive.current) return
        setSending(false)
        setSent(true)
        const cooldown =
          Number.isFinite(answer.cooldownSeconds) && answer.cooldownSeconds > 0
            ? answer.cooldownSeconds
            : DEFAULT_COOLDOWN_SECONDS
        countdown.start(cooldown)
        showToast('验证码已发送')
      },
      (failure: unknown) => {
        if (!alive.current) return
        setSending(false)
        setError(errorText(failure, '验证码发送失败，请稍后重试'))
      },
    )
  }, [sending, countdown, ready, request])

  let label = sent ? '重新获取' : '获取验证码'
  if (sending) label = '发送中...'
  else if (countdown.remaining > 0) label = `${countdown.remaining} 秒后重发`

  return { label, disabled: sending || countdown.remaining > 0, sending, error, send }
}
