import { Text, View } from '@tarojs/components'
import { FormError } from '@/components/form/form-error'
import { MobileField, SmsCodeField, NewPasswordFields } from '@/components/form/fields'
import { FormField } from '@/components/form/form-field'
import { SubmitButton } from '@/components/form/submit-button'
import { SignInNeeded } from '@/components/require-login'
import { routeUrl } from '@/services/navigate'
import type { ChangePasswordView, ForgotPasswordView } from '../hooks/use-password'
import './auth-form.scss'

export function ChangePasswordForm({ view }: { view: ChangePasswordView }) {
  if (!view.signedIn) {
    return <SignInNeeded redirect={routeUrl('password')} text="登录后才能修改密码" />
  }
  return (
    <View className="auth-page password">
      <View className="auth-page__inner">
        <Text className="auth-page__intro">
          修改成功后，已登录的其他设备将退出登录，需使用新密码重新登录。
        </Text>
        {view.needsOld && (
          <FormField
            label="原密码"
            field={view.old}
            placeholder="请输入原密码"
            type="password"
            maxLength={64}
          />
        )}
        <NewPasswordFields password={view.password} confirm={view.confirm} />
        <FormError message={view.error} />
        <SubmitButton busy={view.submitting} onClick={view.submit} text="确认修改" />
        <View className="auth-page__links">
          <Text className="auth-page__link" onClick={view.goToForgot}>
            忘记原密码？
          </Text>
        </View>
      </View>
    </View>
  )
}

export function ForgotPasswordForm({ view }: { view: ForgotPasswordView }) {
  return (
    <View className="auth-page password">
      <View className="auth-page__inner">
        <Text className="auth-page__intro">
          验证注册手机号后设置新密码。重设后所有设备需使用新密码重新登录。
        </Text>
        <MobileField field={view.mobile} placeholder="请输入注册手机号" />
        <SmsCodeField field={view.code} sms={view.sms} />
        <NewPasswordFields password={view.password} confirm={view.confirm} />
        <FormError message={view.error} />
        <SubmitButton busy={view.submitting} onClick={view.submit} text="重设密码" />
      </View>
    </View>
  )
}
