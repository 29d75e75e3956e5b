import { Text, View } from '@tarojs/components'
import { PageState } from '@/components/page-state'
import {
  CONSULT_FOLLOWUP_HOURS,
  type ConsultQuote,
  type ConsultService,
  yuanOf,
} from '@/services/consultations'
import { ConsultNotice, ExpertMiniCard } from '../../shared/consult-parts'
import type { ConsultModeModel, ServiceQuote } from '../hooks/use-consult-mode'
import './apply.scss'

/** What each way of consulting gives, in a patient's words. */
export const SERVICE_PROMISES: Record<ConsultService, (quote: ConsultQuote) => string[]> = {
  text: (quote) => [
    `用文字和图片向专家提问，${quote.answerHours} 小时内回复`,
    `首次回复后 ${CONSULT_FOLLOWUP_HOURS} 小时内可追问 ${quote.followupLimit} 次`,
  ],
  imaging: (quote) => [
    '专家阅读您提供的影像，出具书面会诊意见（影像所见、会诊意见、建议）',
    `${quote.answerHours} 小时内出具`,
  ],
}

const SERVICE_TITLES: Record<ConsultService, string> = { text: '图文咨询', imaging: '影像会诊' }

/** 专家费 ¥48.00 · 平台服务费 ¥12.00: the price split, as the anchors show it. */
export function PriceSplit({ quote }: { quote: Pick<ConsultQuote, 'expertFen' | 'platformFen'> }) {
  return (
    <Text className="consult-price__split">
      专家费 ¥{yuanOf(quote.expertFen)} · 平台服务费 ¥{yuanOf(quote.platformFen)}
    </Text>
  )
}

function ServiceCard({ item, onChoose }: { item: ServiceQuote; onChoose: () => void }) {
  if (item.status === 'error') {
    return (
      <View className="consult-mode__card consult-mode__card--off">
        <Text className="consult-mode__name">{SERVICE_TITLES[item.service]}</Text>
        <Text className="consult-mode__reason">{item.message}</Text>
      </View>
    )
  }
  const { quote } = item
  const off = quote.unavailable !== null
  return (
    <View
      className={`consult-mode__card${off ? ' consult-mode__card--off' : ''}`}
      role="button"
      aria-disabled={off}
      aria-label={off ? `${quote.serviceLabel}，${quote.unavailable}` : quote.serviceLabel}
      onClick={() => !off && onChoose()}
    >
      <View className="consult-mode__head">
        <Text className="consult-mode__name">{quote.serviceLabel}</Text>
        <Text className="consult-price__total">¥{yuanOf(quote.priceFen)}</Text>
      </View>
      {SERVICE_PROMISES[item.service](quote).map((line) => (
        <Text key={line} className="consult-mode__line">
          {line}
        </Text>
      ))}
      <PriceSplit quote={quote} />
      {off ? (
        <Text className="consult-mode__reason">{quote.unavailable}</Text>
      ) : (
        <View className="consult-mode__go">
          <Text>选择{quote.serviceLabel}</Text>
        </View>
      )}
    </View>
  )
}

export interface ConsultModeViewProps {
  model: ConsultModeModel
  /** A record chosen on 影像详情 / 报告详情 rides along. */
  recordChosen: boolean
  onChoose: (service: ConsultService) => void
}

/** 选择会诊方式: 图文咨询 or 影像会诊 with this expert, each with its price split and promise. */
export function ConsultModeView({ model, recordChosen, onChoose }: ConsultModeViewProps) {
  if (model.status === 'loading') return <PageState status="loading" />
  if (model.status === 'error') {
    return <PageState status="error" message={model.message} onRetry={model.retry} />
  }
  const expert = model.quotes.find((item) => item.status === 'ready')
  return (
    <View className="consult-page">
      {expert?.status === 'ready' && (
        <View className="consult-page__card">
          <ExpertMiniCard expert={expert.quote.expert} />
        </View>
      )}
      {recordChosen && (
        <Text className="consult-page__hint">已带入您选择的检查，下一步可在“检查信息”中调整</Text>
      )}
      <Text className="consult-page__section">选择会诊方式</Text>
      {model.quotes.map((item) => (
        <ServiceCard key={item.service} item={item} onChoose={() => onChoose(item.service)} />
      ))}
      <ConsultNotice />
    </View>
  )
}
