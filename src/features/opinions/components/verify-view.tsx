import { useCallback, useEffect, useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button, Input } from '@nutui/nutui-react-taro'
import { VerifyCodeSchema } from '@contract/main/opinions'
import { describeError } from '@/services/api'
import { type OpinionVerification, verifyOpinion } from '@/services/opinions'
import { timeFormat } from '@/utils/time'
import { OPINION_TEXTS as T } from '../texts'
import './opinion-view.scss'

/**
 * 会诊报告核验: a doctor (or anyone) holding the PDF types its code, or scans its QR code (which
 * opens this page with the code), and sees who signed what, for whom (masked) and when, and the
 * content hash to compare. No login needed.
 */
export function VerifyView({ initialCode }: { initialCode?: string | undefined }) {
  const [code, setCode] = useState(initialCode ?? '')
  const [result, setResult] = useState<OpinionVerification | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const check = useCallback(async (typed: string) => {
    const parsed = VerifyCodeSchema.safeParse(typed)
    if (!parsed.success) {
      setResult(null)
      return setError(parsed.error.issues[0]?.message ?? '验证码格式不正确')
    }
    setBusy(true)
    setError(null)
    try {
      setResult(await verifyOpinion(parsed.data))
    } catch (cause) {
      setResult(null)
      setError(describeError(cause, '核验失败，请稍后重试'))
    } finally {
      setBusy(false)
    }
  }, [])
  // The PDF's QR code opens this page with the code: checked at once.
  useEffect(() => {
    if (initialCode) void check(initialCode)
  }, [initialCode, check])
  return (
    <View className="opinion-view opinion-verify">
      <Text className="opinion-view__title">{T.verifyTitle}</Text>
      <Input
        className="opinion-verify__input"
        value={code}
        placeholder={T.verifyPlaceholder}
        maxLength={11}
        aria-label={T.verifyCode}
        onChange={setCode}
      />
      <Button type="primary" block loading={busy} onClick={() => void check(code)}>
        {T.verifyButton}
      </Button>
      {error && <Text className="opinion-verify__error">{error}</Text>}
      {result && (
        <View className="opinion-view__sign" aria-live="polite">
          <Text className="opinion-verify__ok">{T.verifyOk}</Text>
          <Text className="opinion-view__hint">{T.verifyWhat}</Text>
          <Text className="opinion-view__sign-line">
            {T.verifyCode}：{result.verifyCode}
          </Text>
          <Text className="opinion-view__sign-line">
            {T.template}：{result.templateTitle}
          </Text>
          <Text className="opinion-view__sign-line">
            {T.patient}：{result.patientLabel}
          </Text>
          <Text className="opinion-view__sign-line">
            {T.signer}：{result.signer.name} {result.signer.titleLabel}
          </Text>
          <Text className="opinion-view__sign-line">
            {result.signer.hospitalName} {result.signer.department}
          </Text>
          <Text className="opinion-view__sign-line">
            {T.signedAt}：{timeFormat(result.signedAt, 'yyyy-mm-dd hh:MM')}
          </Text>
          <Text className="opinion-view__sign-line">{T.addendaCount(result.addenda)}</Text>
          <Text className="opinion-view__hint opinion-verify__hash">
            {T.hash}：{result.contentHash}
          </Text>
        </View>
      )}
    </View>
  )
}
