import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { ReactNode } from 'react'
import { REPORT_PHOTOS_PER_EXAM } from '@contract/main/dicom-upload'
import type { ExamDetail } from '@/services/records'
import type { UploadedExamModel } from '../hooks/use-uploaded-exam'
import { DicomReportForm } from './dicom-report-form'
import { ReportPhotos } from './report-photos'

/* The classes are the page's (pages/personalReport/detail-ys.scss): these parts draw that page. */

function Row({ label, value }: { label: string; value: string | null }) {
  return (
    <View className="detail-ys__row">
      <Text className="detail-ys__label">{label}</Text>
      <Text className="detail-ys__value">{value && value !== '' ? value : '—'}</Text>
    </View>
  )
}

function size(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** The study's record card: its fields, or the form while 编辑; `actions` sit beside 编辑. */
export function UploadedExamRecord({
  exam,
  model,
  actions,
}: {
  exam: ExamDetail
  model: UploadedExamModel
  actions?: ReactNode
}) {
  const { editing } = model
  return (
    <View className="detail-ys__card">
      <View className="detail-ys__head">
        <Text className="detail-ys__title">{exam.title || '上传的影像'}</Text>
        {!editing && (
          <Text className="detail-ys__edit" onClick={() => model.setEditing(true)}>
            编辑
          </Text>
        )}
        {!editing && actions}
      </View>
      {editing ? (
        <DicomReportForm
          initial={{
            title: exam.title ?? '',
            hospitalText: exam.hospitalText ?? '',
            studyDate: exam.studyDate ?? '',
            notes: exam.notes ?? '',
          }}
          saving={model.saving}
          onSave={(input) => void model.save(input)}
          onCancel={() => model.setEditing(false)}
        />
      ) : (
        <>
          <Row label="就诊人" value={exam.owner.label} />
          <Row label="医院" value={exam.hospitalText} />
          <Row label="检查日期" value={exam.studyDate} />
          <Row label="检查类型" value={exam.modalities.join(' / ')} />
          <Row label="影像" value={`${exam.series.length} 个序列 · ${size(exam.sizeBytes)}`} />
          <Row label="备注" value={exam.notes} />
        </>
      )}
    </View>
  )
}

/** 报告照片: photos of the paper report, added and removed one by one. */
export function UploadedExamPhotos({
  exam,
  model,
}: {
  exam: ExamDetail
  model: UploadedExamModel
}) {
  return (
    <View className="detail-ys__card">
      <Text className="detail-ys__section">报告照片</Text>
      <Text className="detail-ys__hint">拍下纸质报告，照片会去除拍摄地点等信息后保存</Text>
      <ReportPhotos
        photos={exam.files}
        adding={model.adding}
        max={REPORT_PHOTOS_PER_EXAM}
        onAdd={() => void model.addPhotos()}
        onRemove={(photo) => void model.removePhoto(photo.id)}
      />
    </View>
  )
}

/** 删除影像. */
export function DeleteUploadedExam({ model }: { model: UploadedExamModel }) {
  return (
    <Button className="detail-ys__delete" block onClick={() => void model.removeStudy()}>
      删除影像
    </Button>
  )
}
