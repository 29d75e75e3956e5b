import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button, Checkbox } from '@nutui/nutui-react-taro'
import { keptLine, RETENTION_RULES } from '@contract/main/retention'
import { FormError } from '@/components/form/form-error'
import { SmsCodeField } from '@/components/form/fields'
import { SubmitButton } from '@/components/form/submit-button'
import { SignInNeeded } from '@/components/require-login'
import { navigate, routeUrl } from '@/services/navigate'
import { AFTER_DELETION, DELETED_ITEMS, KEPT_TEXT } from '../deletion-terms'
import type { DeleteAccountView as Model } from '../hooks/use-delete-account'
import './auth-form.scss'
import './delete-account-view.scss'

/** What stays after deletion, from the server: each line says how long, with the person's own dates. */
function KeptSection({ kept }: { kept: Model['kept'] }) {
  const [scheduleOpen, setScheduleOpen] = useState(false)
  return (
    <View className="delete-account__section">
      <Text className="delete-account__heading">{KEPT_TEXT.heading}</Text>
      {(kept.status === 'loading' || kept.status === 'idle') && (
        <Text className="delete-account__item">{KEPT_TEXT.loading}</Text>
      )}
      {kept.status === 'error' && (
        <View className="delete-account__kept-error" role="alert">
          <Text className="delete-account__item">{kept.message}</Text>
          <Button size="small" type="primary" onClick={() => void kept.reload()}>
            重试
          </Button>
        </View>
      )}
      {kept.status === 'ready' &&
        kept.data.map((item) => (
          <Text key={`${item.rule}:${item.role ?? ''}`} className="delete-account__item">
            · {keptLine(item)}
          </Text>
        ))}
      <Text
        className="auth-page__link delete-account__toggle"
        onClick={() => setScheduleOpen(!scheduleOpen)}
      >
        {scheduleOpen ? KEPT_TEXT.scheduleHide : KEPT_TEXT.scheduleToggle}
      </Text>
      {scheduleOpen && (
        <View className="delete-account__schedule">
          {RETENTION_RULES.map((rule) => (
            <View key={rule.id} className="delete-account__rule">
              <Text className="delete-account__rule-what">{rule.what}</Text>
              <Text className="delete-account__rule-period">
                {rule.keptFor}，自{rule.from}起；到期{rule.endDetail}
              </Text>
              <Text className="delete-account__rule-why">依据：{rule.why}</Text>
            </View>
          ))}
        </View>
      )}
    </View>
  )
}

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
        <KeptSection kept={view.kept} />
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
