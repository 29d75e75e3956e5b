import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { ReactNode } from 'react'
import type { ExamDetail, SeriesSummary } from '@/services/records'
import { studyWhen } from './exam-card'
import { SeriesGrid } from './series-grid'
import { ModalityTags, Tag, reportTone } from './tags'
import './exam-detail-view.scss'

export interface ExamDetailViewProps {
  exam: ExamDetail
  onOpenSeries: (series: SeriesSummary) => void
  onOpenReport: (reportId: string) => void
  /** Shows the exam number as a bar code (hospital terminals scan it at the counter). */
  onOpenBarCode?: (accessionNumber: string) => void
  /** The 二维码 button, when the page can show one (rendered in the header). */
  qrButton?: ReactNode
  /** The owner's 授权 button (header); absent where the exam is seen through a grant. */
  shareButton?: ReactNode
  /** Under the report: the owner's 谁看过. */
  footer?: ReactNode
}

const SEX: Record<string, string> = { M: '男', F: '女', O: '其他' }

function megabytes(bytes: number): string {
  if (bytes <= 0) return '—'
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

function Row({
  label,
  value,
  action,
}: {
  label: string
  value: string | null | undefined
  /** A link after the value (条码 beside the exam number). */
  action?: { text: string; onClick: () => void } | undefined
}) {
  return (
    <View className="exam-detail__row">
      <Text className="exam-detail__label">{label}</Text>
      <Text className="exam-detail__value">{value && value !== '' ? value : '—'}</Text>
      {action && (
        <Text className="exam-detail__row-action" onClick={action.onClick}>
          {action.text}
        </Text>
      )}
    </View>
  )
}

function ReportEntry({
  exam,
  onOpenReport,
}: {
  exam: ExamDetail
  onOpenReport: (id: string) => void
}) {
  const report = exam.report
  // Seen through a grant: the owner's marks (未读) are not the holder's, a private report shared on
  // purpose opens without the owner's identity check, and a missing report may just not be shared.
  const shared = exam.owner.relation === 'grant'
  if (!report) {
    return (
      <Text className="exam-detail__muted">
        {shared
          ? '本次分享不包含报告'
          : exam.source === 'upload'
            ? '上传的影像没有医院报告'
            : '医院暂未发布报告，发布后会通知您'}
      </Text>
    )
  }
  return (
    <View className="exam-detail__report" onClick={() => onOpenReport(report.id)}>
      <View className="exam-detail__report-tags">
        <Tag tone={reportTone(report.status)}>{report.statusLabel}</Tag>
        {report.private && <Tag>隐私</Tag>}
        {!report.read && !shared && <Tag tone="danger">未读</Tag>}
      </View>
      <Text className="exam-detail__report-text">
        {report.private && !shared ? '隐私报告，验证身份后查看' : '查看影像所见与诊断意见'}
      </Text>
      <Text className="exam-detail__report-link">查看报告 ›</Text>
    </View>
  )
}

/** 影像详情: the study's facts, its series as thumbnails, and its report. */
export function ExamDetailView({
  exam,
  onOpenSeries,
  onOpenReport,
  onOpenBarCode,
  qrButton,
  shareButton,
  footer,
}: ExamDetailViewProps) {
  const where = exam.hospital?.name ?? exam.hospitalText ?? '我上传的影像'
  const who = [
    exam.patientNameMasked,
    exam.patientSex ? (SEX[exam.patientSex] ?? null) : null,
    exam.patientBirthDate,
  ]
    .filter(Boolean)
    .join(' · ')
  return (
    <View className="exam-detail">
      <View className="exam-detail__card">
        <View className="exam-detail__head">
          <Text className="exam-detail__title">{exam.title || '未命名检查'}</Text>
          {qrButton}
          {shareButton}
        </View>
        <View className="exam-detail__tags">
          <ModalityTags modalities={exam.modalities} />
          {exam.status !== 'ready' && (
            <Tag tone={exam.status === 'failed' ? 'danger' : 'warn'}>{exam.statusLabel}</Tag>
          )}
          {exam.archived && <Tag>个人档案</Tag>}
        </View>
        <Row label={exam.source === 'upload' ? '医院（自填）' : '医院'} value={where} />
        <Row label="检查时间" value={studyWhen(exam.studyDate, exam.studyTime)} />
        <Row
          label="检查号"
          value={exam.accessionNumber}
          action={
            exam.accessionNumber && onOpenBarCode
              ? { text: '条码 ›', onClick: () => onOpenBarCode(exam.accessionNumber!) }
              : undefined
          }
        />
        {exam.bodyPart && <Row label="检查部位" value={exam.bodyPart} />}
        {/* Whose record (a grant's holder reads it in the sharer banner above instead). */}
        {exam.owner.relation !== 'grant' && <Row label="就诊人" value={exam.owner.label} />}
        <Row label="患者" value={who} />
        <Row
          label="图像"
          value={`${exam.seriesCount} 个序列 · ${exam.instanceCount} 张 · ${megabytes(exam.sizeBytes)}`}
        />
        {exam.notes && <Row label="备注" value={exam.notes} />}
        {exam.status === 'failed' && exam.statusMessage && (
          <Text className="exam-detail__error">{exam.statusMessage}</Text>
        )}
      </View>

      <View className="exam-detail__card">
        <Text className="exam-detail__heading">影像</Text>
        <SeriesGrid series={exam.series} onOpen={onOpenSeries} />
        <Text className="exam-detail__muted">点击缩略图打开查看器</Text>
      </View>

      <View className="exam-detail__card">
        <Text className="exam-detail__heading">报告</Text>
        <ReportEntry exam={exam} onOpenReport={onOpenReport} />
      </View>
      {footer}
    </View>
  )
}

/** The small 二维码 button in the header. */
export function QrButton({ onClick }: { onClick: () => void }) {
  return (
    <Button
      className="exam-detail__qr"
      size="small"
      fill="outline"
      type="primary"
      onClick={onClick}
    >
      二维码
    </Button>
  )
}
