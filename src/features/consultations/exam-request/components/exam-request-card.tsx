import { Text, View } from '@tarojs/components'
import type { ConsultExamRequestCard } from '@contract/main/consultations'
import { navigate } from '@/services/navigate'
import { EXAM_REQUEST_TEXTS as T } from '../texts'
import './exam-request.scss'

/** The conversation's card of a 检查建议, for both sides: a tap opens the 检查申请单. */
export function ExamRequestCard({ card }: { card: ConsultExamRequestCard }) {
  return (
    <View
      className="exam-card"
      role="button"
      aria-label={`${T.cardBadge} ${card.examTypeLabel} ${card.bodyPart}`}
      onClick={() => void navigate('reportNew', { id: card.id })}
    >
      <View className="exam-card__head">
        <Text className="exam-card__badge">{T.cardBadge}</Text>
        <Text className={`exam-card__urgency exam-card__urgency--${card.urgency}`}>
          {card.urgencyLabel}
        </Text>
      </View>
      <Text className="exam-card__exam">
        {card.examTypeLabel} · {card.bodyPart}
      </Text>
      <Text className="exam-card__open">{T.cardOpen}</Text>
    </View>
  )
}
