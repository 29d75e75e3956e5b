import { Text, View } from '@tarojs/components'
import { FormError } from '@/components/form/form-error'
import { MobileField, SmsCodeField } from '@/components/form/fields'
import { SubmitButton } from '@/components/form/submit-button'
import type { BindTelModel } from '../hooks/use-bind-tel'
import './profile-form.scss'

export interface BindTelViewProps {
  model: BindTelModel
}

export function BindTelView({ model }: BindTelViewProps) {
  return (
    <View className="profile-form">
      <View className="profile-form__current">
        <Text className="profile-form__current-label">当前手机号</Text>
        <Text className="profile-form__current-value">{model.currentMasked ?? '未绑定'}</Text>
      </View>
      <View className="profile-form__card">
        <MobileField field={model.mobile} label="新手机号" placeholder="请输入新手机号" />
        <SmsCodeField field={model.code} sms={model.sms} />
      </View>
      <FormError message={model.formError} />
      <Text className="profile-form__tip">
        验证码将发送到新手机号。绑定后，请使用新手机号登录，原手机号将不再关联此账号。
      </Text>
      <SubmitButton text="确认绑定" busy={model.submitting} onClick={model.submit} />
    </View>
  )
}
