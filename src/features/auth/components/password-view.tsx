import { Text, View } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { Button } from '@nutui/nutui-react-taro'
import { SignInNeeded } from '../../../components/require-login'
import type { ChangePasswordView, ForgotPasswordView } from '../hooks/use-password'
import { CodeButton } from './code-button'
import { FormError } from './form-error'
import { FormField } from './form-field'
import { PasswordStrength } from './password-strength'
import './auth-form.scss'

function SubmitButton({
  busy,
  onClick,
  text,
}: {
  busy: boolean
  onClick: () => void
  text: string
}) {
  return (
    <Button
      className="auth-page__submit"
      type="primary"
      block
      loading={busy}
      disabled={busy}
      onClick={onClick}
    >
      {busy ? '提交中...' : text}
    </Button>
  )
}

export function ChangePasswordForm({ view }: { view: ChangePasswordView }) {
  if (!view.signedIn) {
    return <SignInNeeded redirect="/pages/pwd/pwd" text="登录后才能修改密码" />
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
        <FormField
          label="新密码"
          field={view.password}
          placeholder="8 位以上字母和数字"
          type="password"
          maxLength={64}
          hint={<PasswordStrength strength={view.strength} />}
        />
        <FormField
          label="确认密码"
          field={view.confirm}
          placeholder="请再次输入新密码"
          type="password"
          maxLength={64}
        />
        <FormError message={view.error} />
        <SubmitButton busy={view.submitting} onClick={view.submit} text="确认修改" />
        <View className="auth-page__links">
          <Text
            className="auth-page__link"
            onClick={() => void Taro.navigateTo({ url: view.forgotUrl }).catch(() => undefined)}
          >
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
        <FormField
          label="手机号"
          field={view.mobile}
          placeholder="请输入注册手机号"
          type="number"
          maxLength={11}
        />
        <FormField
          label="验证码"
          field={view.code}
          placeholder="请输入验证码"
          type="number"
          maxLength={6}
          extra={<CodeButton sms={view.sms} />}
        />
        {view.sms.error && (
          <View className="auth-field__error" role="alert">
            {view.sms.error}
          </View>
        )}
        <FormField
          label="新密码"
          field={view.password}
          placeholder="8 位以上字母和数字"
          type="password"
          maxLength={64}
          hint={<PasswordStrength strength={view.strength} />}
        />
        <FormField
          label="确认密码"
          field={view.confirm}
          placeholder="请再次输入新密码"
          type="password"
          maxLength={64}
        />
        <FormError message={view.error} />
        <SubmitButton busy={view.submitting} onClick={view.submit} text="重设密码" />
      </View>
    </View>
  )
}
