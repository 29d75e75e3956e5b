import { Text, View } from '@tarojs/components'
import { SmsCodeField } from '@/components/form/fields'
import { FormError } from '@/components/form/form-error'
import { SubmitButton } from '@/components/form/submit-button'
import type { ClaimCodeView } from '../hooks/use-claim-code'
import './claim.scss'

/** 验证手机号: where the code goes (masked, as the hospital recorded it), the code, 确认添加. */
export function ClaimCodeStep({
  mobileMasked,
  proof,
  submitText = '验证并添加到我的影像',
}: {
  mobileMasked: string
  proof: ClaimCodeView
  submitText?: string
}) {
  return (
    <View className="claim-code">
      <Text className="claim-code__intro">
        验证码将发送至医院登记的手机号
        <Text className="claim-code__phone"> {mobileMasked} </Text>
        ，验证后该检查的影像和报告会加入您的账号。
      </Text>
      <SmsCodeField field={proof.code} sms={proof.sms} />
      <FormError message={proof.error} />
      <SubmitButton busy={proof.submitting} onClick={proof.submit} text={submitText} />
    </View>
  )
}
