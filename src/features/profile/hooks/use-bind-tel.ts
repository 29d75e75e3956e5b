import { useCallback, useEffect, useRef, useState } from 'react'
import Taro from '@tarojs/taro'
import { showToast } from '@/platform/ui'
import { bindPhone, describeError, sendBindCode } from '@/services/profile'
import { useAppStore } from '@/stores/app-store'
import { mobileError, smsCodeError } from '../validation'
import { useField, type FieldModel } from './use-field'

export interface BindTelModel {
  /** The phone on file, masked; null when none is bound. */
  currentMasked: string | null
  mobile: FieldModel
  code: FieldModel
  /** Seconds before another code may be sent; 0 when 获取验证码 is available. */
  cooldown: number
  sending: boolean
  submitting: boolean
  formError: string | null
  sendCode: () => void
  submit: () => void
}

const DEFAULT_COOLDOWN_SECONDS = 60

/** 绑定手机号: a code goes to the new number, and binding with it replaces the old one. */
export function useBindTel(): BindTelModel {
  const currentMasked = useAppStore((state) => state.profile?.mobileMasked ?? null)
  const mobile = useField(mobileError)
  const code = useField(smsCodeError)
  const [cooldown, setCooldown] = useState(0)
  const [sending, setSending] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  useEffect(() => {
    if (cooldown <= 0) return
    const timer = setTimeout(() => setCooldown((seconds) => Math.max(0, seconds - 1)), 1000)
    return () => clearTimeout(timer)
  }, [cooldown])

  const sendCode = useCallback(() => {
    if (sending || cooldown > 0 || !mobile.validate()) return
    setSending(true)
    setFormError(null)
    sendBindCode(mobile.value).then(
      (sent) => {
        if (!alive.current) return
        setSending(false)
        setCooldown(sent.cooldownSeconds > 0 ? sent.cooldownSeconds : DEFAULT_COOLDOWN_SECONDS)
        showToast('验证码已发送')
      },
      (error: unknown) => {
        if (!alive.current) return
        setSending(false)
        setFormError(describeError(error))
      },
    )
  }, [sending, cooldown, mobile])

  const submit = useCallback(() => {
    if (submitting) return
    const mobileOk = mobile.validate()
    const codeOk = code.validate()
    if (!mobileOk || !codeOk) return
    setSubmitting(true)
    setFormError(null)
    bindPhone(mobile.value, code.value).then(
      () => {
        if (!alive.current) return
        setSubmitting(false)
        code.reset()
        showToast('手机号已绑定', { icon: 'success' })
        setTimeout(() => void Taro.navigateBack().catch(() => undefined), 800)
      },
      (error: unknown) => {
        if (!alive.current) return
        setSubmitting(false)
        setFormError(describeError(error))
      },
    )
  }, [submitting, mobile, code])

  return {
    currentMasked,
    mobile,
    code,
    cooldown,
    sending,
    submitting,
    formError,
    sendCode,
    submit,
  }
}
