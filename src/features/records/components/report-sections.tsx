import { Text, View } from '@tarojs/components'
import { useState } from 'react'
import type { ReportDetail, ReportVersion } from '@/services/records'
import { timeFormat } from '@/utils/time'
import { studyWhen } from './exam-card'
import { ModalityTags, Tag, reportTone } from './tags'
import './report-sections.scss'

const when = (iso: string | null) => (iso ? timeFormat(iso, 'yyyy-mm-dd hh:MM') : '—')

function InfoRow({ label, value }: { label: string; value: string | null }) {
  return (
    <View className="report-sections__row">
      <Text className="report-sections__label">{label}</Text>
      <Text className="report-sections__value">{value && value.trim() !== '' ? value : '—'}</Text>
    </View>
  )
}

function Section({ title, text, empty }: { title: string; text: string | null; empty: string }) {
  return (
    <View className="report-sections__card">
      <Text className="report-sections__heading">{title}</Text>
      <Text className={`report-sections__text${text ? '' : ' report-sections__text--empty'}`}>
        {text && text.trim() !== '' ? text : empty}
      </Text>
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
          医院已{report.statusLabel === '已作废' ? '作废' : '撤销'}该报告，请以医院的最新通知为准。
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
