import { Text, View } from '@tarojs/components'
import { BarCode } from '@/components/bar-code'
import { windowWidth } from '@/platform/device'
import type { ExamRequest } from '@/services/exam-requests'
import { timeFormat } from '@/utils/time'
import { EXAM_REQUEST_TEXTS as T } from '../texts'
import './exam-request.scss'

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <View className="exam-sheet__row">
      <Text className="exam-sheet__key">{label}</Text>
      <Text className={`exam-sheet__value${strong ? ' exam-sheet__value--strong' : ''}`}>
        {value}
      </Text>
    </View>
  )
}

/**
 * 检查申请单 as a registration desk reads it: the number as a Code 128 bar code, the patient
 * (masked), the exam and why, the suggesting expert, and that it is a suggestion, not an order.
 */
export function ExamRequestSheet({ request }: { request: ExamRequest }) {
  // 336 px draws the number's 165 modules 2 px wide; a narrower phone gets what fits beside the
  // sheet's margins (about 20 px a side), never a code cut by the screen's edge.
  const barWidth = Math.min(336, (windowWidth() ?? 375) - 40)
  const { patient, expert } = request
  const sexAge = [patient.sexLabel, patient.age !== null ? T.age(patient.age) : '']
    .filter(Boolean)
    .join(' / ')
  return (
    <View className="exam-sheet" aria-label={T.formTitle}>
      <View className="exam-sheet__head">
        <Text className="exam-sheet__title">{T.formTitle}</Text>
        <Text className="exam-sheet__subtitle">{T.formSubtitle}</Text>
      </View>
      <View className="exam-sheet__code">
        <BarCode
          value={request.number}
          canvasId="exam-request-bar-code"
          maxWidth={barWidth}
          height={88}
        />
      </View>
      <View className="exam-sheet__rows">
        <Row label={T.number} value={request.number} />
        <Row label={T.patient} value={patient.nameMasked} />
        <Row label={T.sexAge} value={sexAge || T.unknown} />
        <Row label={T.exam} value={request.examTypeLabel} strong />
        <Row label={T.bodyPart} value={request.bodyPart} strong />
        <Row label={T.contrast} value={request.contrastLabel} />
        <Row
          label={T.urgency}
          value={request.urgencyLabel}
          strong={request.urgency !== 'routine'}
        />
        <View className="exam-sheet__row exam-sheet__row--block">
          <Text className="exam-sheet__key">{T.reason}</Text>
          <Text className="exam-sheet__reason">{request.reason}</Text>
        </View>
        <Row label={T.expert} value={`${expert.name} ${expert.titleLabel}`} />
        <Row label="医院科室" value={`${expert.hospitalName} ${expert.department}`} />
        <Row label={T.date} value={timeFormat(request.createdAt, 'yyyy-mm-dd')} />
      </View>
      <View className="exam-sheet__notice" role="note">
        {request.notice}
      </View>
    </View>
  )
}
