import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { BindTelModel } from '../hooks/use-bind-tel'
import { FormError, ProfileField } from './profile-field'

export interface BindTelViewProps {
  model: BindTelModel
}

export function BindTelView({ model }: BindTelViewProps) {
  const codeLabel = model.cooldown > 0 ? `${model.cooldown} 秒后重发` : '获取验证码'
  return (
    <View className="profile-form">
      <View className="profile-form__current">
        <Text className="profile-form__current-label">当前手机号</Text>
        <Text className="profile-form__current-value">{model.currentMasked ?? '未绑定'}</Text>
      </View>
      <View className="profile-form__card">
        <ProfileField
          label="新手机号"
          field={model.mobile}
          placeholder="请输入新手机号"
          type="tel"
          maxLength={11}
        />
        <ProfileField
          label="验证码"
          field={model.code}
          placeholder="6 位验证码"
          type="number"
          maxLength={6}
          extra={
            <Button
              className="profile-field__code"
              size="small"
              fill="outline"
              type="primary"
              disabled={model.cooldown > 0 || model.sending}
              onClick={model.sendCode}
            >
              {codeLabel}
            </Button>
          }
        />
      </View>
      <FormError message={model.formError} />
      <Text className="profile-form__tip">
        验证码将发送到新手机号。绑定后，请使用新手机号登录，原手机号将不再关联此账号。
      </Text>
      <View className="profile-form__submit">
        <Button type="primary" block loading={model.submitting} onClick={model.submit}>
          确认绑定
        </Button>
      </View>
    </View>
  )
}
