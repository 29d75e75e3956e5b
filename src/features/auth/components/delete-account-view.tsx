import { Text, View } from '@tarojs/components'
import { Checkbox } from '@nutui/nutui-react-taro'
import { FormError } from '@/components/form/form-error'
import { SmsCodeField } from '@/components/form/fields'
import { SubmitButton } from '@/components/form/submit-button'
import { SignInNeeded } from '@/components/require-login'
import { navigate, routeUrl } from '@/services/navigate'
import { AFTER_DELETION, DELETED_ITEMS, KEPT_ITEMS } from '../deletion-terms'
import type { DeleteAccountView as Model } from '../hooks/use-delete-account'
import './auth-form.scss'
import './delete-account-view.scss'

export function DeleteAccountView({ view }: { view: Model }) {
  if (!view.signedIn) {
    return <SignInNeeded redirect={routeUrl('deleteAccount')} text="登录后才能注销账号" />
  }
  return (
    <View className="auth-page delete-account">
      <View className="auth-page__inner">
        <View className="delete-account__section">
          <Text className="delete-account__heading">注销后将删除</Text>
          {DELETED_ITEMS.map((item) => (
            <Text key={item} className="delete-account__item">
              · {item}
            </Text>
          ))}
        </View>
        <View className="delete-account__section">
          <Text className="delete-account__heading">将保留</Text>
          {KEPT_ITEMS.map((item) => (
            <Text key={item} className="delete-account__item">
              · {item}
            </Text>
          ))}
        </View>
        <Text className="delete-account__after">{AFTER_DELETION}</Text>
        <Text
          className="auth-page__link delete-account__policy"
          onClick={() => void navigate('privacyPolicy')}
        >
          查看《隐私政策》
        </Text>
        <Text className="delete-account__phone">
          {view.mobileMasked
            ? `验证码将发送至 ${view.mobileMasked}`
            : '验证码将发送至您账号绑定的手机号'}
        </Text>
        <SmsCodeField field={view.code} sms={view.sms} />
        <View className="auth-agreement">
          <View className="auth-agreement__line">
            <Checkbox
              className="auth-agreement__box"
              checked={view.consent.agreed}
              onChange={(value) => view.consent.setAgreed(value)}
            />
            <Text
              className="auth-agreement__text"
              onClick={() => view.consent.setAgreed(!view.consent.agreed)}
            >
              我已阅读并同意注销
            </Text>
          </View>
          {view.consent.error && (
            <View className="auth-agreement__error" role="alert">
              {view.consent.error}
            </View>
          )}
        </View>
        <FormError message={view.error} />
        <SubmitButton
          text="注销账号"
          busyText="注销中…"
          tone="danger"
          busy={view.submitting}
          onClick={view.submit}
        />
      </View>
    </View>
  )
}
