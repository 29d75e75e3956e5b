import { Text, View } from '@tarojs/components'
import { FormError } from '@/components/form/form-error'
import { MobileField, SmsCodeField, NewPasswordFields } from '@/components/form/fields'
import { SubmitButton } from '@/components/form/submit-button'
import type { RegisterView as RegisterViewModel } from '../hooks/use-register'
import { AgreementCheck } from './agreement-check'
import './auth-form.scss'

export function RegisterView({ view }: { view: RegisterViewModel }) {
  return (
    <View className="auth-page register">
      <View className="auth-page__inner">
        <Text className="auth-page__intro">
          使用手机号注册医影通。绑定身份证后，可查看您在各医院的检查影像和报告，也可上传自己的 DICOM
          影像。
        </Text>
        <MobileField field={view.mobile} />
        <SmsCodeField field={view.code} sms={view.sms} />
        <NewPasswordFields password={view.password} label="设置密码" />
        <AgreementCheck consent={view.consent} />
        <FormError message={view.error} />
        <SubmitButton text="注册" busyText="注册中…" busy={view.submitting} onClick={view.submit} />
        <View className="auth-page__links">
          <Text className="auth-page__link" onClick={view.goToLogin}>
            已有账号？去登录
          </Text>
        </View>
      </View>
    </View>
  )
}
