import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { ReactNode } from 'react'
import { PageState } from '@/components/page-state'
import type { ReportDetail, ScanResult } from '@/services/claims'
import { navigate } from '@/services/navigate'
import type { FilmExtras, FilmReportView as FilmReportModel } from '../hooks/use-film-report'
import { ClaimCodeStep } from './claim-code-step'
import './film-report-view.scss'

export interface FilmReportViewProps {
  view: FilmReportModel
  /** How the page draws a report (the records feature's report sections). */
  renderReport: (report: ReportDetail) => ReactNode
}

/** 报告 2 份（1 份已出终稿）: the scan service's count; null until it answers. */
export function reportCountText(count: FilmExtras['count']): string | null {
  if (!count) return null
  if (count.total === 0) return '暂无报告'
  return `${count.total} 份（${count.final} 份已出终稿）`
}

/** Who issued the code: the first thing a scanned page says. */
function IssuedBy({ scan, extras }: { scan: ScanResult; extras: FilmExtras }) {
  const { exam } = scan
  const count = reportCountText(extras.count)
  const facts: [string, string | null][] = [
    ['检查项目', exam.title],
    ['检查类型', exam.modalities.join(' / ') || null],
    ['检查日期', exam.studyDate],
    ['患者', exam.patientNameMasked],
    ['报告状态', exam.hasReport ? exam.reportStatusLabel : '报告尚未出具'],
    ...(count ? [['报告', count] as [string, string]] : []),
  ]
  const rooms = extras.rooms ?? []
  return (
    <View className="film-report__issuer">
      <Text className="film-report__issuer-label">出具医院</Text>
      <Text className="film-report__issuer-name">{exam.hospital.name}</Text>
      <Text className="film-report__issuer-note">通过胶片袋 / 报告单二维码打开 · 只读</Text>
      <View className="film-report__facts">
        {facts.map(([label, value]) => (
          <View key={label} className="film-report__fact">
            <Text className="film-report__fact-label">{label}</Text>
            <Text className="film-report__fact-value">{value ?? '—'}</Text>
          </View>
        ))}
      </View>
      {rooms.length > 0 && (
        <View className="film-report__rooms">
          <Text className="film-report__rooms-label">医院科室</Text>
          <View className="film-report__room-list">
            {rooms.map((room) => (
              <Text key={room.id} className="film-report__room">
                {room.name}
              </Text>
            ))}
          </View>
        </View>
      )}
    </View>
  )
}

/** detail2: a report opened from a scanned film-bag code. */
export function FilmReportView({ view, renderReport }: FilmReportViewProps) {
  const { state } = view
  switch (state.status) {
    case 'loading':
      return <PageState status="loading" />
    case 'invalid':
      return <PageState status="error" message="二维码无效，请扫描医院胶片袋或报告单上的二维码" />
    case 'error':
      return <PageState status="error" message={state.message} onRetry={view.retry} />
    case 'locked': {
      const { scan } = state
      return (
        <View className="film-report">
          <IssuedBy scan={scan} extras={view.extras} />
          <View className="film-report__card">
            <Text className="film-report__heading">验证后查看报告</Text>
            {scan.ticket !== null && scan.mobileMasked !== null ? (
              <ClaimCodeStep
                mobileMasked={scan.mobileMasked}
                proof={view.proof}
                submitText="验证并查看报告"
              />
            ) : (
              <View>
                <Text className="film-report__text">
                  医院未登记可接收验证码的手机号。绑定与检查登记一致的身份证后，本人的检查会自动出现在“个人影像”中。
                </Text>
                <Button type="primary" block onClick={() => void navigate('idCard')}>
                  去绑定身份证
                </Button>
              </View>
            )}
          </View>
        </View>
      )
    }
    case 'ready': {
      const { scan, report } = state
      return (
        <View className="film-report">
          {state.justClaimed && (
            <View className="film-report__banner" role="status">
              已添加到我的影像和报告
            </View>
          )}
          <IssuedBy scan={scan} extras={view.extras} />
          {report === null && (
            <View className="film-report__card">
              <Text className="film-report__text">
                医院尚未出具报告，出具后会显示在这里和“个人报告”中。
              </Text>
            </View>
          )}
          {report !== null && report.locked && (
            <View className="film-report__card">
              <Text className="film-report__text">
                该报告已设为隐私，请在报告详情中验证身份后查看。
              </Text>
              <Button
                type="primary"
                block
                onClick={() => void navigate('reportDetail', { id: report.id })}
              >
                去报告详情
              </Button>
            </View>
          )}
          {report !== null && !report.locked && renderReport(report)}
          {scan.examId !== null && (
            <Button
              className="film-report__images"
              block
              onClick={() => void navigate('imageDetail', { id: scan.examId ?? undefined })}
            >
              查看影像
            </Button>
          )}
        </View>
      )
    }
  }
}
