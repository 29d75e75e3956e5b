import { Text, View } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { Button, Checkbox } from '@nutui/nutui-react-taro'
import { SignInNeeded } from '../../../components/require-login'
import { PAGES } from '../auth-navigation'
import { AFTER_DELETION, DELETED_ITEMS, KEPT_ITEMS } from '../deletion-terms'
import type { DeleteAccountView as Model } from '../hooks/use-delete-account'
import { CodeButton } from './code-button'
import { FormError } from './form-error'
import { FormField } from './form-field'
import './auth-form.scss'
import './delete-account-view.scss'

export function DeleteAccountView({ view }: { view: Model }) {
  if (!view.signedIn) {
    return <SignInNeeded redirect="/pages/delAccount/delAccount" text="登录后才能注销账号" />
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
          onClick={() => void Taro.navigateTo({ url: PAGES.privacyPolicy }).catch(() => undefined)}
        >
          查看《隐私政策》
        </Text>
        <Text className="delete-account__phone">
          {view.mobileMasked
            ? `验证码将发送至 ${view.mobileMasked}`
            : '验证码将发送至您账号绑定的手机号'}
        </Text>
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
        <View className="auth-agreement">
          <View className="auth-agreement__line">
            <Checkbox
              className="auth-agreement__box"
              checked={view.agreed}
              onChange={(value) => view.setAgreed(value)}
            />
            <Text className="auth-agreement__text" onClick={() => view.setAgreed(!view.agreed)}>
              我已阅读并同意注销
            </Text>
          </View>
          {view.agreementError && (
            <View className="auth-agreement__error" role="alert">
              {view.agreementError}
            </View>
          )}
        </View>
        <FormError message={view.error} />
        <Button
          className="auth-page__submit delete-account__submit"
          type="primary"
          block
          loading={view.submitting}
          disabled={view.submitting}
          onClick={view.submit}
        >
          {view.submitting ? '注销中...' : '注销账号'}
        </Button>
      </View>
    </View>
  )
}
