import { useState } from 'react'
import { View } from '@tarojs/components'
import { PageState } from '@/components/page-state'
import { TabStrip } from '@/components/tab-strip'
import { useFeatures } from '../hooks/use-operator'
import { ActionsPanel } from './actions-panel'
import { ArticlesPanel } from './articles-panel'
import { ExpertApplicationsPanel } from './expert-applications-panel'
import { ExpertsPanel } from './experts-panel'
import { FeaturesPanel } from './features-panel'
import { FeedbackPanel } from './feedback-panel'
import { HospitalsPanel } from './hospitals-panel'
import { OperatorsOnly } from './operators-only'
import { VideosPanel } from './videos-panel'
import './operator.scss'

const TABS = [
  { key: 'articles', title: '文章' },
  { key: 'videos', title: '视频' },
  { key: 'feedback', title: '反馈' },
  { key: 'features', title: '应用' },
  { key: 'hospitals', title: '医院' },
  { key: 'expertApplications', title: '专家认证' },
  { key: 'experts', title: '专家管理' },
  { key: 'actions', title: '操作记录' },
] as const
type Tab = (typeof TABS)[number]['key']

/** 运营后台: its tabs, for operators only (operators-only.tsx). */
export function OperatorHome() {
  return (
    <OperatorsOnly>
      <OperatorConsole />
    </OperatorsOnly>
  )
}

function OperatorConsole() {
  const [tab, setTab] = useState<Tab>('articles')
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
        {tab === 'actions' && <ActionsPanel />}
      </View>
    </View>
  )
}
