import { Text, View } from '@tarojs/components'
import { useDidShow } from '@tarojs/taro'
import { useState } from 'react'
import { ExplainedText } from '@/components/explained-text'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import { type Bookmark, deleteBookmark, listBookmarks } from '@/services/bookmarks'
import type { ReportDetail, ReportVersion } from '@/services/records'
import { timeFormat } from '@/utils/time'
import { useResource } from '@/hooks/use-resource'
import { studyWhen } from './exam-card'
import { ModalityTags, Tag, reportTone } from './tags'
import './report-sections.scss'

/** One of the report's key images (contract: ReportDetail.keyImages). */
export type KeyImage = NonNullable<ReportDetail['keyImages']>[number]

const when = (iso: string | null) => (iso ? timeFormat(iso, 'yyyy-mm-dd hh:MM') : '—')

function InfoRow({ label, value }: { label: string; value: string | null }) {
  return (
    <View className="report-sections__row">
      <Text className="report-sections__label">{label}</Text>
      <Text className="report-sections__value">{value && value.trim() !== '' ? value : '—'}</Text>
    </View>
  )
}

/** A part of the report's words, its medical terms underlined and explained on a tap. */
function Section({ title, text, empty }: { title: string; text: string | null; empty: string }) {
  return (
    <View className="report-sections__card">
      <Text className="report-sections__heading">{title}</Text>
      {text && text.trim() !== '' ? (
        <ExplainedText className="report-sections__text" text={text} />
      ) : (
        <Text className="report-sections__text report-sections__text--empty">{empty}</Text>
      )}
    </View>
  )
}

/** Header and exam facts of a report: what, where, when, who, and its status. */
export function ReportHeader({ report }: { report: ReportDetail }) {
  return (
    <View className="report-sections__card">
      <Text className="report-sections__title">{report.title || '检查报告'}</Text>
      <View className="report-sections__tags">
        <ModalityTags modalities={report.modalities} />
        <Tag tone={reportTone(report.status)}>{report.statusLabel}</Tag>
        {report.version > 1 && <Tag tone="warn">{`第 ${report.version} 版`}</Tag>}
        {report.private && <Tag>隐私</Tag>}
        {report.archived && <Tag>个人档案</Tag>}
      </View>
      {/* Whose record (a grant's holder reads it in the sharer banner instead). */}
      {report.owner.relation !== 'grant' && <InfoRow label="就诊人" value={report.owner.label} />}
      <InfoRow label="医院" value={report.hospital.name} />
      <InfoRow label="姓名" value={report.patientNameMasked} />
      <InfoRow label="检查号" value={report.accessionNumber} />
      <InfoRow label="检查时间" value={studyWhen(report.studyDate, report.studyTime)} />
      <InfoRow label="报告时间" value={when(report.issuedAt)} />
      {!report.locked && <InfoRow label="报告医生" value={report.performer} />}
      {!report.locked && <InfoRow label="审核医生" value={report.reviewer} />}
    </View>
  )
}

/** 影像所见 and 诊断意见, the words of the report. */
export function ReportBody({ report }: { report: ReportDetail }) {
  if (report.status === 'cancelled' || report.status === 'entered-in-error') {
    return (
      <View className="report-sections__card report-sections__card--notice">
        <Text className="report-sections__text">
          医院已{report.status === 'entered-in-error' ? '作废' : '撤销'}
          该报告，请以医院的最新通知为准。
        </Text>
      </View>
    )
  }
  return (
    <>
      <Section title="影像所见" text={report.findings} empty="医院未提供影像所见" />
      <Section title="诊断意见" text={report.conclusion} empty="医院未提供诊断意见" />
      {report.status === 'preliminary' && (
        <Text className="report-sections__hint">
          这是初步报告，正式报告发出后会更新，请以正式报告为准。
        </Text>
      )}
    </>
  )
}

function VersionEntry({ version }: { version: ReportVersion }) {
  const [open, setOpen] = useState(false)
  return (
    <View className="report-sections__version">
      <View className="report-sections__version-head" onClick={() => setOpen(!open)}>
        <Text className="report-sections__version-name">
          第 {version.version} 版 · {version.statusLabel}
        </Text>
        {/* When the hospital issued that version; when it reached us only if it gave no time. */}
        <Text className="report-sections__version-time">
          {when(version.issuedAt ?? version.recordedAt)}
        </Text>
        <Text className="report-sections__version-toggle">{open ? '收起' : '展开'}</Text>
      </View>
      {open && (
        <View className="report-sections__version-body">
          <Text className="report-sections__label">影像所见</Text>
          <Text className="report-sections__version-text">{version.findings ?? '—'}</Text>
          <Text className="report-sections__label">诊断意见</Text>
          <Text className="report-sections__version-text">{version.conclusion ?? '—'}</Text>
          {version.keyImages && (
            <>
              <Text className="report-sections__label">关键图像</Text>
              {version.keyImages.length === 0 ? (
                <Text className="report-sections__version-text">本版未标注关键图像</Text>
              ) : (
                version.keyImages.map((image) => (
                  <Text
                    key={`${image.sopInstanceUid}:${image.frame}`}
                    className="report-sections__version-text"
                  >
                    {sliceLabel(image)}
                    {image.comment ? `：${image.comment}` : ''}
                  </Text>
                ))
              )}
            </>
          )}
          <Text className="report-sections__version-doctors">
            报告医生 {version.performer ?? '—'} · 审核医生 {version.reviewer ?? '—'}
          </Text>
        </View>
      )}
    </View>
  )
}

/**
 * 修订记录: what the hospital said before it amended or corrected the report, oldest first, so a
 * patient can see what changed. Hidden when the report was never changed.
 */
export function ReportHistory({ history }: { history: readonly ReportVersion[] }) {
  if (history.length === 0) return null
  return (
    <View className="report-sections__card">
      <Text className="report-sections__heading">修订记录</Text>
      <Text className="report-sections__hint report-sections__hint--inline">
        医院修改过这份报告，以下是之前的版本：
      </Text>
      {history.map((version) => (
        <VersionEntry key={version.version} version={version} />
      ))}
    </View>
  )
}

/** 第 7 层 · 肺窗 5mm · 第 3 帧: where in the exam an image is, as far as it is known. */
export function sliceLabel(image: {
  instanceNumber?: number | null
  seriesDescription?: string | null
  frame: number
}): string {
  const parts: string[] = []
  if (image.instanceNumber !== null && image.instanceNumber !== undefined) {
    parts.push(`第 ${image.instanceNumber} 层`)
  }
  if (image.seriesDescription) parts.push(image.seriesDescription)
  if (image.frame > 1) parts.push(`第 ${image.frame} 帧`)
  return parts.length > 0 ? parts.join(' · ') : '图像'
}

/**
 * 查看关键图像: the slices the hospital's report points at, each with the report's words about it,
 * each opening the viewer on exactly that image and frame. Hidden when the report names none.
 */
export function ReportKeyImages({
  images,
  onOpen,
}: {
  images: readonly KeyImage[]
  onOpen: (image: KeyImage) => void
}) {
  if (images.length === 0) return null
  return (
    <View className="report-sections__card">
      <Text className="report-sections__heading">查看关键图像</Text>
      <Text className="report-sections__hint report-sections__hint--inline">
        报告医生标注的 {images.length} 幅关键图像，点击在查看器中打开
      </Text>
      {images.map((image, index) => (
        <View
          key={`${image.sopInstanceUid}:${image.frame}`}
          className="report-sections__item"
          aria-label={`打开关键图像 ${index + 1}`}
          onClick={() => onOpen(image)}
        >
          <View className="report-sections__item-main">
            <Text className="report-sections__item-title">
              关键图像 {index + 1} · {sliceLabel(image)}
            </Text>
            {image.comment && <Text className="report-sections__item-text">{image.comment}</Text>}
          </View>
          <Text className="report-sections__item-action">查看 ›</Text>
        </View>
      ))}
    </View>
  )
}

/**
 * 我的书签: the slices this person bookmarked in the viewer for this exam, with their notes; each
 * opens the viewer there or is deleted (after a confirm). Loads on its own so the report shows
 * at once, and a failure here never hides the report.
 */
export function ReportBookmarks({
  examId,
  onOpen,
}: {
  examId: string
  onOpen: (bookmark: Bookmark) => void
}) {
  const marks = useResource(`bookmarks:${examId}`, () => listBookmarks(examId))
  // The viewer (opened from here) is where bookmarks are added: back on this page, list them again.
  // Not useRefreshOnReturn: this list mounts after the report has loaded, so the page's first show
  // has passed and the first show it sees is already a return.
  useDidShow(() => marks.reload())
  const [deleting, setDeleting] = useState<string | null>(null)

  const remove = async (bookmark: Bookmark) => {
    if (deleting || marks.status !== 'ready') return
    const sure = await showModal({
      title: '删除书签',
      content: bookmark.note ? `确定删除书签“${bookmark.note}”吗？` : '确定删除这个书签吗？',
      confirmText: '删除',
    })
    if (!sure) return
    setDeleting(bookmark.id)
    try {
      await deleteBookmark(bookmark.id)
      marks.replace(marks.data.filter((item) => item.id !== bookmark.id))
      showToast('已删除书签')
    } catch (error) {
      showToast(describeError(error, '删除失败，请稍后重试'))
    } finally {
      setDeleting(null)
    }
  }

  return (
    <View className="report-sections__card">
      <Text className="report-sections__heading">我的书签</Text>
      {marks.status === 'loading' && (
        <Text className="report-sections__text report-sections__text--empty">正在加载书签…</Text>
      )}
      {marks.status === 'error' && (
        <View className="report-sections__item" onClick={marks.reload}>
          <Text className="report-sections__text report-sections__text--empty">
            {describeError(marks.error, '书签加载失败')}
          </Text>
          <Text className="report-sections__item-action">重试</Text>
        </View>
      )}
      {marks.status === 'ready' && marks.data.length === 0 && (
        <Text className="report-sections__text report-sections__text--empty">
          还没有书签。在影像查看器中点“书签”，即可标记图像并写下备注。
        </Text>
      )}
      {marks.status === 'ready' &&
        marks.data.map((bookmark) => (
          <View key={bookmark.id} className="report-sections__item">
            <View
              className="report-sections__item-main"
              aria-label={`打开书签 ${bookmark.note || sliceLabel(bookmark)}`}
              onClick={() => onOpen(bookmark)}
            >
              <Text className="report-sections__item-title">{bookmark.note || '（未写备注）'}</Text>
              <Text className="report-sections__item-text">
                {sliceLabel(bookmark)} ·{' '}
                <Text className="report-sections__item-time">{when(bookmark.createdAt)}</Text>
              </Text>
            </View>
            <Text className="report-sections__item-action" onClick={() => onOpen(bookmark)}>
              查看
            </Text>
            <Text
              className="report-sections__item-action report-sections__item-action--danger"
              aria-label={`删除书签 ${bookmark.note || sliceLabel(bookmark)}`}
              onClick={() => void remove(bookmark)}
            >
              {deleting === bookmark.id ? '删除中' : '删除'}
            </Text>
          </View>
        ))}
    </View>
  )
}
