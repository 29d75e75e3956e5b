import { Text, View } from '@tarojs/components'
import { PageState } from '@/components/page-state'
import type { AgreementView } from '../hooks/use-agreement'
import './agreement-document.scss'

export interface AgreementDocumentProps {
  view: AgreementView
  /** The privacy page's paragraph split and date format, passed in so both pages read alike. */
  splitParagraphs: (content: string) => string[]
  formatUpdatedAt: (value: string) => string
}

/** An agreement's text as the privacy-policy page draws its own: title, version, paragraphs. */
export function AgreementDocument({
  view,
  splitParagraphs,
  formatUpdatedAt,
}: AgreementDocumentProps) {
  const { state } = view
  return (
    <View className="agreement-doc">
      {state.status === 'loading' && <PageState status="loading" />}
      {state.status === 'error' && (
        <PageState status="error" message={state.message} onRetry={view.retry} />
      )}
      {state.status === 'ready' && (
        <View className="agreement-doc__document">
          <Text className="agreement-doc__title">{state.agreement.title}</Text>
          <Text className="agreement-doc__meta">
            版本 {state.agreement.version} · 更新于 {formatUpdatedAt(state.agreement.updatedAt)}
          </Text>
          {splitParagraphs(state.agreement.content).map((paragraph, index) => (
            <Text key={index} className="agreement-doc__paragraph">
              {paragraph}
            </Text>
          ))}
        </View>
      )}
    </View>
  )
}
