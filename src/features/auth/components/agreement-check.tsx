import { Text, View } from '@tarojs/components'
import { Checkbox } from '@nutui/nutui-react-taro'
import { navigate } from '@/services/navigate'
import type { Consent } from '../hooks/use-consent'
import './auth-form.scss'

/** 我已阅读并同意《用户协议》和《隐私政策》: the links open the texts, the rest ticks the box. */
export function AgreementCheck({ consent }: { consent: Consent }) {
  const { agreed: checked, setAgreed: onChange, error } = consent
  return (
    <View className="auth-agreement">
      <View className="auth-agreement__line">
        <Checkbox
          className="auth-agreement__box"
          checked={checked}
          onChange={(value) => onChange(value)}
        />
        <Text className="auth-agreement__text" onClick={() => onChange(!checked)}>
          我已阅读并同意
        </Text>
        <Text className="auth-agreement__link" onClick={() => void navigate('agreement')}>
          《用户协议》
        </Text>
        <Text className="auth-agreement__text" onClick={() => onChange(!checked)}>
          和
        </Text>
        <Text className="auth-agreement__link" onClick={() => void navigate('privacyPolicy')}>
          《隐私政策》
        </Text>
      </View>
      {error && (
        <View className="auth-agreement__error" role="alert">
          {error}
        </View>
      )}
    </View>
  )
}
