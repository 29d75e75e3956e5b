import { Text, View } from '@tarojs/components'
import { Weixin } from '@nutui/icons-react-taro'
import { FormError } from '@/components/form/form-error'
import { MobileField, SmsCodeField } from '@/components/form/fields'
import { FormField } from '@/components/form/form-field'
import { SubmitButton } from '@/components/form/submit-button'
import type { LoginMode, LoginView as LoginViewModel } from '../hooks/use-login'
import { AgreementCheck } from './agreement-check'
import { QrLoginPanel } from './qr-login-panel'
import './auth-form.scss'
import './login-view.scss'

const MODE_TITLES: Record<LoginMode, string> = {
  qr: '扫码登录',
  password: '密码登录',
  sms: '验证码登录',
}

function CredentialsForm({ view }: { view: LoginViewModel }) {
  const byPassword = view.mode === 'password'
  return (
    <View className="login__form">
      <MobileField field={view.mobile} />
      {byPassword ? (
        <FormField
          label="密码"
          field={view.password}
          placeholder="请输入密码"
          type="password"
          maxLength={64}
        />
      ) : (
        <SmsCodeField field={view.code} sms={view.sms} />
      )}
      <AgreementCheck consent={view.consent} />
      <FormError message={view.error} />
      <SubmitButton text="登录" busyText="登录中…" busy={view.submitting} onClick={view.submit} />
      <View className="auth-page__links">
        <Text className="auth-page__link" onClick={view.goToRegister}>
          注册账号
        </Text>
        <Text className="auth-page__link" onClick={view.goToForgot}>
          忘记密码
        </Text>
      </View>
    </View>
  )
}

/** Both login pages: login (with WeChat on the mini-program) and loginios (no third party). */
export function LoginView({ view }: { view: LoginViewModel }) {
  return (
    <View className={`auth-page login${view.modes.includes('qr') ? ' login--desktop' : ''}`}>
      <View className="auth-page__inner">
        <View className="login__brand">
          <View className="login__logo">医</View>
          <Text className="login__name">医影通</Text>
          <Text className="login__slogan">各医院的影像与报告，随身查询</Text>
        </View>
        {view.expiredNote && (
          <View className="login__note" role="status">
            {view.expiredNote}
          </View>
        )}
        {/* A plain tab header: NutUI's Tabs measures itself with selector queries, which a page
            that is still mounting (and Jest) cannot answer. */}
        <View className="login__tabs" role="tablist">
          {view.modes.map((mode) => (
            <View
              key={mode}
              role="tab"
              aria-selected={mode === view.mode}
              className={`login__tab${mode === view.mode ? ' login__tab--active' : ''}`}
              onClick={() => view.setMode(mode)}
            >
              {MODE_TITLES[mode]}
            </View>
          ))}
        </View>
        {view.mode === 'qr' ? (
          <QrLoginPanel active onSession={view.finish} />
        ) : (
          <CredentialsForm view={view} />
        )}
        {view.wechat.available && view.mode !== 'qr' && (
          <View className="login__third">
            <View className="login__divider">
              <Text className="login__divider-text">其他登录方式</Text>
            </View>
            <View
              className={`login__wechat${view.submitting ? ' login__wechat--busy' : ''}`}
              onClick={view.submitting ? undefined : view.wechat.login}
            >
              <Weixin size={28} color="#07c160" />
              <Text className="login__wechat-text">微信登录</Text>
            </View>
          </View>
        )}
      </View>
    </View>
  )
}
