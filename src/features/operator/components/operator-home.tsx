import { useState } from 'react'
import { View } from '@tarojs/components'
import { PageState } from '@/components/page-state'
import { TabStrip } from '@/components/tab-strip'
import { useFeatures } from '../hooks/use-operator'
import { ActionsPanel } from './actions-panel'
import { ArticlesPanel } from './articles-panel'
import { ConsultationsPanel } from './consultations-panel'
import { ExpertApplicationsPanel } from './expert-applications-panel'
import { ExpertsPanel } from './experts-panel'
import { FeaturesPanel } from './features-panel'
import { FeedbackPanel } from './feedback-panel'
import { HospitalRequestsPanel } from './hospital-requests-panel'
import { HospitalsPanel } from './hospitals-panel'
import { OperatorsOnly } from './operators-only'
import { VideosPanel } from './videos-panel'
import { WithdrawalsPanel } from './withdrawals-panel'
import './operator.scss'

const TABS = [
  { key: 'articles', title: '文章' },
  { key: 'videos', title: '视频' },
  { key: 'feedback', title: '反馈' },
  { key: 'features', title: '应用' },
  { key: 'hospitals', title: '医院' },
  { key: 'expertApplications', title: '专家认证' },
  { key: 'experts', title: '专家管理' },
  { key: 'hospitalRequests', title: '医院申请' },
  { key: 'consultations', title: '咨询订单' },
  { key: 'withdrawals', title: '提现审核' },
  { key: 'actions', title: '操作记录' },
] as const
export type OperatorTab = (typeof TABS)[number]['key']
type Tab = OperatorTab

/** A tab named by the page's `?tab=` (another operator page links straight to one). */
export function operatorTabOf(value: string | undefined): OperatorTab {
  return TABS.find((tab) => tab.key === value)?.key ?? 'articles'
}

/** 运营后台: its tabs, for operators only (operators-only.tsx). */
export function OperatorHome({ initialTab = 'articles' }: { initialTab?: OperatorTab }) {
  return (
    <OperatorsOnly>
      <OperatorConsole initialTab={initialTab} />
    </OperatorsOnly>
  )
}

function OperatorConsole({ initialTab }: { initialTab: OperatorTab }) {
  const [tab, setTab] = useState<Tab>(initialTab)
  const features = useFeatures()
  if (features.status === 'error') {
    return <PageState status="error" message={features.message} onRetry={features.reload} />
  }
  if (features.status === 'loading') return <PageState status="loading" />
  return (
    <View className="operator">
      <TabStrip tabs={TABS} active={tab} onChange={setTab} />
      <View className="operator__body">
        {tab === 'articles' && <ArticlesPanel />}
        {tab === 'videos' && <VideosPanel />}
        {tab === 'feedback' && <FeedbackPanel />}
        {tab === 'features' && <FeaturesPanel features={features.data} reload={features.reload} />}
        {tab === 'hospitals' && <HospitalsPanel />}
        {tab === 'expertApplications' && <ExpertApplicationsPanel />}
        {tab === 'experts' && <ExpertsPanel />}
        {tab === 'hospitalRequests' && <HospitalRequestsPanel />}
        {tab === 'consultations' && <ConsultationsPanel />}
        {tab === 'withdrawals' && <WithdrawalsPanel />}
        {tab === 'actions' && <ActionsPanel />}
      </View>
    </View>
  )
}
