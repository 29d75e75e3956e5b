import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { useState } from 'react'
import { useParams } from '@/hooks/use-params'
import { REPORT_PHOTOS_PER_EXAM } from '@contract/main/dicom-upload'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { DicomReportForm } from '../../features/dicom-upload/components/dicom-report-form'
import { ReportPhotos } from '../../features/dicom-upload/components/report-photos'
import { SeriesFiles } from '../../features/records/components/series-files'
import { SeriesGrid } from '../../features/records/components/series-grid'
import { useExamDetail } from '../../features/records/hooks/use-exam-detail'
import { GrantSheet } from '../../features/sharing/owner/components/grant-sheet'
import {
  ShareButton,
  WhoViewedEntry,
  grantPersonOf,
} from '../../features/sharing/owner/components/sharing-entries'
import { subjectOfExam } from '../../features/sharing/owner/grant-form'
import { pickPhotos } from '../../platform/file-picker'
import { showModal, showToast } from '../../platform/ui'
import { describeError } from '../../services/api'
import {
  deleteDicomReport,
  deleteReportPhoto,
  saveDicomReport,
  uploadReportPhoto,
  type SaveDicomReportInput,
} from '../../services/dicom-upload'
import { back, navigate } from '../../services/navigate'
import type { ExamDetail } from '../../services/records'
import { usePrefetchViewer } from '../personalImage/viewer-prefetch'
import './detail-ys.scss'

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

function DetailYs({ exam, reload }: { exam: ExamDetail; reload: () => void }) {
  const [editing, setEditing] = useState(false)
  const [saving, setSaving] = useState(false)
  const [adding, setAdding] = useState(false)
  const [grantOpen, setGrantOpen] = useState(false)

  const save = async (input: Omit<SaveDicomReportInput, 'examId'>) => {
    setSaving(true)
    try {
      await saveDicomReport({ examId: exam.id, ...input })
      showToast('已保存')
      setEditing(false)
      reload()
    } catch (error) {
      showToast(describeError(error))
    } finally {
      setSaving(false)
    }
  }

  const addPhotos = async () => {
    let paths: string[]
    try {
      paths = await pickPhotos(Math.min(9, REPORT_PHOTOS_PER_EXAM - exam.files.length))
    } catch (error) {
      showToast(describeError(error, '无法读取照片，请重新选择'))
      return
    }
    if (paths.length === 0) return
    setAdding(true)
    try {
      for (const path of paths) await uploadReportPhoto(exam.id, path)
    } catch (error) {
      showToast(describeError(error))
    } finally {
      setAdding(false)
      reload()
    }
  }

  const removePhoto = async (fileId: string) => {
    if (!(await showModal({ title: '删除照片', content: '确定删除这张报告照片？' }))) return
    try {
      await deleteReportPhoto(fileId)
      reload()
    } catch (error) {
      showToast(describeError(error))
    }
  }

  const removeStudy = async () => {
    const confirmed = await showModal({
      title: '删除影像',
      content: '删除后影像文件和报告照片将被永久删除，无法恢复。确定删除？',
      confirmText: '删除',
    })
    if (!confirmed) return
    try {
      await deleteDicomReport(exam.id)
      showToast('已删除')
      void back()
    } catch (error) {
      showToast(describeError(error))
    }
  }

  return (
    <View className="detail-ys">
      <View className="detail-ys__card">
        <View className="detail-ys__head">
          <Text className="detail-ys__title">{exam.title || '上传的影像'}</Text>
          {!editing && (
            <Text className="detail-ys__edit" onClick={() => setEditing(true)}>
              编辑
            </Text>
          )}
          {!editing && <ShareButton onClick={() => setGrantOpen(true)} />}
        </View>
        {editing ? (
          <DicomReportForm
            initial={{
              title: exam.title ?? '',
              hospitalText: exam.hospitalText ?? '',
              studyDate: exam.studyDate ?? '',
              notes: exam.notes ?? '',
            }}
            saving={saving}
            onSave={(input) => void save(input)}
            onCancel={() => setEditing(false)}
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

      <View className="detail-ys__card">
        <Text className="detail-ys__section">影像</Text>
        <SeriesGrid
          series={exam.series}
          onOpen={(series) =>
            void navigate('imageViewer', {
              examId: exam.id,
              seriesUid: series.seriesUid,
              t: Date.now(),
              // What this page already has: the viewer paints this thumbnail before anything answers.
              ...(exam.studyUid ? { studyUid: exam.studyUid } : {}),
              ...(series.thumbnailPath ? { thumb: series.thumbnailPath } : {}),
            })
          }
        />
      </View>

      {exam.series.length > 0 && (
        <View className="detail-ys__card">
          <Text className="detail-ys__section">文件</Text>
          <Text className="detail-ys__hint">误传或不需要的文件可单独删除</Text>
          <SeriesFiles examId={exam.id} series={exam.series} onDeleted={reload} />
        </View>
      )}

      <View className="detail-ys__card">
        <Text className="detail-ys__section">报告照片</Text>
        <Text className="detail-ys__hint">拍下纸质报告，照片会去除拍摄地点等信息后保存</Text>
        <ReportPhotos
          photos={exam.files}
          adding={adding}
          max={REPORT_PHOTOS_PER_EXAM}
          onAdd={() => void addPhotos()}
          onRemove={(photo) => void removePhoto(photo.id)}
        />
      </View>

      <WhoViewedEntry examId={exam.id} personId={grantPersonOf(exam.owner)} />

      <Button className="detail-ys__delete" block onClick={() => void removeStudy()}>
        删除影像
      </Button>
      <GrantSheet
        visible={grantOpen}
        onClose={() => setGrantOpen(false)}
        subject={subjectOfExam(exam)}
        personId={grantPersonOf(exam.owner)}
      />
    </View>
  )
}

function DetailYsContent({ examId }: { examId: string }) {
  const exam = useExamDetail(examId)
  usePrefetchViewer(exam.status === 'ready' && exam.data.series.length > 0)
  if (exam.status === 'loading') return <PageState status="loading" />
  if (exam.status === 'error') {
    return (
      <PageState
        status="error"
        message={describeError(exam.error, '加载失败，请检查网络后重试')}
        onRetry={exam.reload}
      />
    )
  }
  return <DetailYs exam={exam.data} reload={exam.reload} />
}

/** 报告详情 (ys): one uploaded study — its record (editable), series, report photos, delete. */
export default function PersonalReportDetailYsPage() {
  const { id } = useParams()
  return (
    <RequireLogin text="登录后才能查看影像">
      {id ? <DetailYsContent examId={id} /> : <PageState status="error" message="缺少影像编号" />}
    </RequireLogin>
  )
}
