import { Text, View } from '@tarojs/components'
import { useEffect } from 'react'
import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { SignInNeeded } from '../../components/require-login'
import { ReportsView } from '../../features/records/components/reports-view'
import { useRefreshOnReturn } from '../../features/records/hooks/use-refresh-on-return'
import { useReports } from '../../features/records/hooks/use-reports'
import { navigate, redirect, routeUrl, switchTab } from '../../services/navigate'
import { useAppStore } from '../../stores/app-store'
import './index-weixin.scss'

/*
 * 个人报告, entered from WeChat: a service-account menu item, a report notification, or a report card
 * someone shared. Unlike personalReport/index (opened from inside the app), it
 * - is usually the first page (nothing to go back to), so it offers the way to 首页 itself;
 * - keeps its whole query through login (a notification's link must still lead to its report);
 * - with `reportId` goes straight to that report (replacing itself, so back does not land here);
 * - with `hospitalId` opens filtered to that hospital, and with `unread=1` to unread reports only.
 */

function WeixinReports({ hospitalId, unreadOnly }: { hospitalId?: string; unreadOnly: boolean }) {
  const reports = useReports({ hospitalId: hospitalId ?? '', unreadOnly })
  useRefreshOnReturn(reports.list.refresh)
  return (
    <ReportsView
      reports={reports}
      onOpen={(report) => void navigate('reportDetail', { id: report.id })}
      banner={
        <View className="weixin-reports__banner">
          <Text className="weixin-reports__welcome">您在各医院的检查报告都在这里</Text>
          <Text className="weixin-reports__home" onClick={() => void switchTab('main')}>
            首页 ›
          </Text>
        </View>
      }
    />
  )
}

function OpenReport({ reportId }: { reportId: string }) {
  useEffect(() => {
    void redirect('reportDetail', { id: reportId })
  }, [reportId])
  return <PageState status="loading" message="正在打开报告 ..." />
}

export default function PersonalReportIndexWeixinPage() {
  const { reportId, hospitalId, unread } = useParams()
  const hasLogin = useAppStore((state) => state.hasLogin)
  if (!hasLogin) {
    return (
      <SignInNeeded
        text="登录后查看您的检查报告"
        redirect={routeUrl('reportsLanding', { reportId, hospitalId, unread })}
      />
    )
  }
  if (reportId) return <OpenReport reportId={reportId} />
  return <WeixinReports hospitalId={hospitalId || undefined} unreadOnly={unread === '1'} />
}
