import { Text, View } from '@tarojs/components'
import type { ExamSummary } from '@/services/records'
import { ModalityTags, Tag, reportTone } from './tags'
import './exam-card.scss'

export interface ExamCardProps {
  exam: ExamSummary
  /** Inside a hospital's group the hospital goes without saying; default true. */
  showHospital?: boolean
  onOpen: (exam: ExamSummary) => void
}

/** "2026-11-20 09:30" from the study's own date and time (the hospital's local time). */
export function studyWhen(date: string | null, time: string | null): string {
  if (!date) return '检查日期未知'
  return time ? `${date} ${time.slice(0, 5)}` : date
}

function ReportMark({ exam }: { exam: ExamSummary }) {
  if (exam.status !== 'ready') {
    return <Tag tone={exam.status === 'failed' ? 'danger' : 'warn'}>{exam.statusLabel}</Tag>
  }
  if (!exam.report) return <Tag>暂无报告</Tag>
  return (
    <>
      <Tag tone={reportTone(exam.report.status)}>{exam.report.statusLabel}</Tag>
      {exam.report.private && <Tag>隐私</Tag>}
      {!exam.report.read && <Tag tone="danger">未读</Tag>}
    </>
  )
}

/** One exam in a list: what was examined, when, where, and whether its report is there. */
export function ExamCard({ exam, showHospital = true, onOpen }: ExamCardProps) {
  const where = exam.hospital?.name ?? exam.hospitalText ?? '我上传的影像'
  return (
    <View className="exam-card" onClick={() => onOpen(exam)}>
      <View className="exam-card__head">
        <Text className="exam-card__title">{exam.title || '未命名检查'}</Text>
        <Text className="exam-card__arrow">›</Text>
      </View>
      <View className="exam-card__tags">
        <ModalityTags modalities={exam.modalities} />
        <ReportMark exam={exam} />
      </View>
      <View className="exam-card__meta">
        <Text>{studyWhen(exam.studyDate, exam.studyTime)}</Text>
        {exam.status === 'ready' && (
          <Text className="exam-card__count">
            {exam.seriesCount} 个序列 · {exam.instanceCount} 张
          </Text>
        )}
      </View>
      {showHospital && <Text className="exam-card__hospital">{where}</Text>}
      {exam.accessionNumber && (
        <Text className="exam-card__hospital">检查号 {exam.accessionNumber}</Text>
      )}
      {exam.status === 'failed' && exam.statusMessage && (
        <Text className="exam-card__error">{exam.statusMessage}</Text>
      )}
    </View>
  )
}
