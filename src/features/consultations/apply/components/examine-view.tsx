import { Picker, Text, View } from '@tarojs/components'
import { Button, Input } from '@nutui/nutui-react-taro'
import type { ReactNode } from 'react'
import type { PagedList } from '@/components/refresh-list'
import { EXTERNAL_EXAMS_MAX } from '@/services/consultations'
import type { ExamSummary, ReportListItem } from '@/services/records'
import { dayjs } from '@/utils/time'
import { ConsultNotice } from '../../shared/consult-parts'
import { recordDetail } from '../draft'
import type { ExamineModel } from '../hooks/use-examine'
import { PictureGrid } from './picture-grid'
import './apply.scss'

function Tick({ on }: { on: boolean }) {
  return <View className={`consult-tick${on ? ' consult-tick--on' : ''}`}>{on ? '✓' : ''}</View>
}

function RecordRow({
  on,
  disabled,
  title,
  detail,
  badge,
  onClick,
}: {
  on: boolean
  disabled?: boolean
  title: string
  detail: string
  badge?: ReactNode
  onClick: () => void
}) {
  return (
    <View
      role="checkbox"
      aria-checked={on}
      aria-disabled={disabled}
      className={`consult-record${disabled ? ' consult-record--off' : ''}`}
      onClick={onClick}
    >
      <Tick on={on} />
      <View className="consult-record__text">
        <View className="consult-record__title-row">
          <Text className="consult-record__title">{title}</Text>
          {badge}
        </View>
        {detail !== '' && <Text className="consult-record__detail">{detail}</Text>}
      </View>
    </View>
  )
}

function ListTail<T>({ list, empty }: { list: PagedList<T>; empty: string }) {
  if (list.status === 'loading' && list.items.length === 0) {
    return <Text className="consult-page__muted">加载中 ...</Text>
  }
  if (list.status === 'error' && list.items.length === 0) {
    return (
      <Text className="consult-page__link" onClick={() => void list.refresh()}>
        加载失败，点击重试
      </Text>
    )
  }
  if (list.items.length === 0) return <Text className="consult-page__muted">{empty}</Text>
  if (list.loadMore === 'idle') {
    return (
      <Text className="consult-page__link" onClick={() => void list.loadNext()}>
        查看更多
      </Text>
    )
  }
  if (list.loadMore === 'loading') return <Text className="consult-page__muted">加载中 ...</Text>
  if (list.loadMore === 'error') {
    return (
      <Text className="consult-page__link" onClick={() => void list.loadNext()}>
        加载失败，点击重试
      </Text>
    )
  }
  return null
}

function examDetail(exam: ExamSummary): string {
  const base = recordDetail(exam.hospital?.name ?? exam.hospitalText, exam.studyDate)
  return exam.status === 'ready' ? base : [base, exam.statusLabel].filter(Boolean).join(' · ')
}

function reportDetail(report: ReportListItem): string {
  return recordDetail(report.hospital.name, report.studyDate)
}

function ExternalExamForm({ model, index }: { model: ExamineModel; index: number }) {
  const exam = model.draft.externalExams[index]
  const today = dayjs().format('YYYY-MM-DD')
  return (
    <View className="consult-external">
      <View className="consult-external__head">
        <Text className="consult-form__label">院外检查 {index + 1}</Text>
        <Text className="consult-page__link" onClick={() => model.removeExternal(index)}>
          删除
        </Text>
      </View>
      <Input
        className="consult-external__input"
        value={exam.hospital}
        placeholder="检查医院，如 某市人民医院"
        maxLength={50}
        onChange={(value) => model.updateExternal(index, { hospital: value })}
      />
      <Input
        className="consult-external__input"
        value={exam.type}
        placeholder="检查类型，如 胸部CT"
        maxLength={30}
        onChange={(value) => model.updateExternal(index, { type: value })}
      />
      <Picker
        mode="date"
        value={exam.date || today}
        end={today}
        onChange={(event) => model.updateExternal(index, { date: String(event.detail.value) })}
      >
        <View className="consult-external__input consult-external__date">
          <Text className={exam.date ? '' : 'consult-page__muted'}>
            {exam.date || '检查日期（点击选择）'}
          </Text>
        </View>
      </Picker>
      <Text className="consult-form__hint">报告单或胶片照片（最多 9 张）</Text>
      <PictureGrid
        pictures={exam.pictures}
        onAdd={() => void model.addExternalPictures(index)}
        onRemove={(id) =>
          model.updateExternal(index, {
            pictures: exam.pictures.filter((picture) => picture.id !== id),
          })
        }
      />
    </View>
  )
}

export interface ExamineViewProps {
  model: ExamineModel
  onUpload: () => void
  onNext: () => void
}

/** 检查信息: the person's exams and reports to share, a new upload, and exams done elsewhere. */
export function ExamineView({ model, onUpload, onNext }: ExamineViewProps) {
  const { draft, problems } = model
  const exams = draft.records.filter((record) => record.kind === 'exam').length
  return (
    <View className="consult-page consult-page--with-bar">
      <View className="consult-page__card">
        <Text className="consult-form__label">
          为 {draft.personLabel || '本人'} 选择要提供给专家的资料
        </Text>
        <Text className="consult-form__hint">
          已选 {exams} 项影像、{draft.records.length - exams} 份报告、
          {draft.externalExams.length} 项院外检查
          {model.service === 'imaging' ? '；影像会诊需要至少一项影像检查' : ''}
        </Text>
        {problems.records && (
          <View className="consult-form__error" role="alert">
            {problems.records}
          </View>
        )}
      </View>

      <View className="consult-page__card">
        <View className="consult-page__card-head">
          <Text className="consult-form__label">我的影像</Text>
          <Text className="consult-page__link" onClick={onUpload}>
            上传新检查
          </Text>
        </View>
        {model.exams.items.map((exam) => (
          <RecordRow
            key={exam.id}
            on={model.isChosen('exam', exam.id)}
            disabled={exam.status !== 'ready'}
            title={exam.title}
            detail={examDetail(exam)}
            onClick={() => model.toggleExam(exam)}
          />
        ))}
        <ListTail list={model.exams} empty="暂无影像，可上传新检查或在下方描述院外检查" />
      </View>

      <View className="consult-page__card">
        <Text className="consult-form__label">个人报告</Text>
        {model.reports.items.map((report) => (
          <RecordRow
            key={report.id}
            on={model.isChosen('report', report.id)}
            title={report.title}
            detail={reportDetail(report)}
            badge={
              report.private ? (
                <Text className="consult-record__lock" aria-label="隐私报告">
                  🔒 隐私
                </Text>
              ) : null
            }
            onClick={() => void model.toggleReport(report)}
          />
        ))}
        <ListTail list={model.reports} empty="暂无报告" />
      </View>

      <View className="consult-page__card">
        <Text className="consult-form__label">院外检查</Text>
        <Text className="consult-form__hint">
          不在本应用中的检查，可描述医院、日期和类型并上传照片（最多 {EXTERNAL_EXAMS_MAX} 项）
        </Text>
        {draft.externalExams.map((_exam, index) => (
          <ExternalExamForm key={index} model={model} index={index} />
        ))}
        {problems.externalExams && (
          <View className="consult-form__error" role="alert">
            {problems.externalExams}
          </View>
        )}
        {draft.externalExams.length < EXTERNAL_EXAMS_MAX && (
          <Button
            className="consult-page__outline"
            size="small"
            fill="outline"
            onClick={model.addExternal}
          >
            + 添加院外检查
          </Button>
        )}
      </View>
      <ConsultNotice />
      <View className="consult-bar">
        <Button className="consult-bar__button" type="primary" block onClick={onNext}>
          下一步：确认申请
        </Button>
      </View>
    </View>
  )
}
