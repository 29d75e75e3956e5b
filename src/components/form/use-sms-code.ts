import { useCallback, useEffect, useRef, useState } from 'react'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import { isCancelled } from '@/services/http'

/** Used when the server's answer carries no usable cooldown. */
export const DEFAULT_COOLDOWN_SECONDS = 60

export const SMS_TEXT = {
  idle: '获取验证码',
  sending: '发送中…',
  again: '重新获取',
  counting: (seconds: number) => `重新获取(${seconds}s)`,
  sent: '验证码已发送',
  failed: '验证码发送失败，请稍后重试',
} as const

export interface SmsCode {
  /** 获取验证码, 发送中…, 重新获取(59s), 重新获取 */
  label: string
  /** Looks disabled: sending, counting down, or the phone it would go to is not valid yet. */
  disabled: boolean
  sending: boolean
  /** Whole seconds before another code may be asked for; 0 when it may. */
  remaining: number
  /** The server's refusal (rate limit), shown under the field. */
  error: string | null
  send: () => void
}

export interface SmsCodeOptions {
  /** The phone the code goes to is valid (default true: a code to the account's own phone). */
  ready?: boolean
  /** Tapped while not ready: show why (the phone field's message). Nothing is sent. */
  onBlocked?: () => void
}

/**
 * Counts down to an end time rather than counting ticks, so a timer the browser throttles in a
 * background tab still ends on time.
 */
function useCountdown() {
  const [remaining, setRemaining] = useState(0)
  const timer = useRef<ReturnType<typeof setInterval> | null>(null)

  const stop = useCallback(() => {
    if (timer.current !== null) clearInterval(timer.current)
    timer.current = null
  }, [])

  useEffect(() => stop, [stop])

  const start = useCallback(
    (seconds: number) => {
      stop()
      const whole = Math.max(0, Math.ceil(seconds))
      setRemaining(whole)
      if (whole === 0) return
      const end = Date.now() + whole * 1000
      timer.current = setInterval(() => {
        const left = Math.max(0, Math.ceil((end - Date.now()) / 1000))
        setRemaining(left)
        if (left === 0) stop()
      }, 1000)
    },
    [stop],
  )

  return { remaining, start }
}

/**
 * The 获取验证码 button of every form: sends through `request`, then counts down for the cooldown
 * the server answered (60 s when it gives none), during which it cannot send again.
 */
export function useSmsCode(
  request: () => Promise<{ cooldownSeconds: number }>,
  { ready = true, onBlocked }: SmsCodeOptions = {},
): SmsCode {
  const [sending, setSending] = useState(false)
  const [sent, setSent] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const countdown = useCountdown()
  const busy = useRef(false)
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  const send = useCallback(() => {
    if (busy.current || countdown.remaining > 0) return
    if (!ready) {
      onBlocked?.()
      return
    }
    busy.current = true
    setSending(true)
    setError(null)
    request().then(
      (answer) => {
        busy.current = false
        if (!alive.current) return
        setSending(false)
        setSent(true)
        const cooldown =
          Number.isFinite(answer.cooldownSeconds) && answer.cooldownSeconds > 0
            ? answer.cooldownSeconds
            : DEFAULT_COOLDOWN_SECONDS
        countdown.start(cooldown)
        showToast(SMS_TEXT.sent)
      },
      (failure: unknown) => {
        busy.current = false
        if (!alive.current) return
        setSending(false)
        if (!isCancelled(failure)) setError(describeError(failure, SMS_TEXT.failed))
      },
    )
  }, [countdown, ready, onBlocked, request])

  let label: string = sent ? SMS_TEXT.again : SMS_TEXT.idle
  if (sending) label = SMS_TEXT.sending
  else if (countdown.remaining > 0) label = SMS_TEXT.counting(countdown.remaining)

  return {
    label,
    disabled: sending || countdown.remaining > 0 || !ready,
    sending,
    remaining: countdown.remaining,
    error,
    send,
  }
}

interface PhoneForm<K extends string> {
  values: Record<K, string>
  valid: (name: K) => boolean
  reveal: (name: K) => void
}

/** `useSmsCode` for a code to the phone typed in `form`'s field `phone`. */
export function usePhoneSmsCode<K extends string>(
  form: PhoneForm<K>,
  phone: K,
  send: (mobile: string) => Promise<{ cooldownSeconds: number }>,
): SmsCode {
  const mobile = form.values[phone]
  const request = useCallback(() => send(mobile), [send, mobile])
  return useSmsCode(request, { ready: form.valid(phone), onBlocked: () => form.reveal(phone) })
}
