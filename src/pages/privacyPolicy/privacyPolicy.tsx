import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import {
  BLOCKED_MESSAGES,
  formatUpdatedAt,
  splitParagraphs,
} from '../../features/launch/privacy-consent'
import { usePrivacyPolicy } from '../../features/launch/use-privacy-policy'
import './privacyPolicy.scss'

export default function PrivacyPolicyPage() {
  const params = useParams()
  const view = usePrivacyPolicy(params)
  const { mode, state } = view

  if (mode.kind === 'blocked') {
    return (
      <View className="privacy-policy privacy-policy--blocked" role="alert">
        <Text className="privacy-policy__blocked-text">{BLOCKED_MESSAGES[mode.reason]}</Text>
        {mode.reason === 'refused' && (
          <Button className="privacy-policy__reconsider" type="primary" onClick={view.reconsider}>
            重新阅读隐私政策
          </Button>
        )}
      </View>
    )
  }

  const consent = mode.kind === 'consent'
  return (
    <View className={`privacy-policy${consent ? ' privacy-policy--consent' : ''}`}>
      {state.status === 'loading' && <PageState status="loading" />}
      {state.status === 'error' && (
        <PageState status="error" message={state.message} onRetry={view.retry} />
      )}
      {state.status === 'ready' && (
        <View className="privacy-policy__document">
          <Text className="privacy-policy__title">{state.agreement.title}</Text>
          <Text className="privacy-policy__meta">
            版本 {state.agreement.version} · 更新于 {formatUpdatedAt(state.agreement.updatedAt)}
          </Text>
          {splitParagraphs(state.agreement.content).map((paragraph, index) => (
            <Text key={index} className="privacy-policy__paragraph">
              {paragraph}
            </Text>
          ))}
        </View>
      )}
      {consent && (
        <View className="privacy-policy__bar">
          <Button
            className="privacy-policy__refuse"
            fill="outline"
            disabled={view.busy}
            onClick={view.refuse}
          >
            不同意
          </Button>
          {view.agreeWithWechat ? (
            <Button
              className="privacy-policy__agree"
              type="primary"
              id="agree-privacy"
              openType="agreePrivacyAuthorization"
              disabled={state.status !== 'ready' || view.busy}
              onAgreePrivacyAuthorization={view.agree}
            >
              同意并继续
            </Button>
          ) : (
            <Button
              className="privacy-policy__agree"
              type="primary"
              disabled={state.status !== 'ready' || view.busy}
              onClick={view.agree}
            >
              同意并继续
            </Button>
          )}
        </View>
      )}
    </View>
  )
}
