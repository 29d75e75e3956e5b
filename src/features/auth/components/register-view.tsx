import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { RegisterView as RegisterViewModel } from '../hooks/use-register'
import { AgreementCheck } from './agreement-check'
import { CodeButton } from './code-button'
import { FormError } from './form-error'
import { FormField } from './form-field'
import { PasswordStrength } from './password-strength'
import './auth-form.scss'

export function RegisterView({ view }: { view: RegisterViewModel }) {
  return (
    <View className="auth-page register">
      <View className="auth-page__inner">
        <Text className="auth-page__intro">使用手机号注册医影通，查看您在各医院的影像和报告。</Text>
        <FormField
          label="手机号"
          field={view.mobile}
          placeholder="请输入手机号"
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
          label="设置密码"
          field={view.password}
          placeholder="8 位以上字母和数字"
          type="password"
          maxLength={64}
          hint={<PasswordStrength strength={view.strength} />}
        />
        <AgreementCheck
          checked={view.agreed}
          onChange={view.setAgreed}
          error={view.agreementError}
        />
        <FormError message={view.error} />
        <Button
          className="auth-page__submit"
          type="primary"
          block
          loading={view.submitting}
          disabled={view.submitting}
          onClick={view.submit}
        >
          {view.submitting ? '注册中...' : '注册'}
        </Button>
        <View className="auth-page__links">
          <Text className="auth-page__link" onClick={view.goToLogin}>
            已有账号？去登录
          </Text>
        </View>
      </View>
    </View>
  )
}
