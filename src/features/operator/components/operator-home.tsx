import { useState } from 'react'
import { View } from '@tarojs/components'
import { PageState } from '@/components/page-state'
import { TabStrip } from '@/components/tab-strip'
import { back } from '@/services/navigate'
import { OPERATORS_ONLY, useFeatures, useOwnProfile } from '../hooks/use-operator'
import { ActionsPanel } from './actions-panel'
import { ArticlesPanel } from './articles-panel'
import { FeaturesPanel } from './features-panel'
import { FeedbackPanel } from './feedback-panel'
import { HospitalsPanel } from './hospitals-panel'
import { VideosPanel } from './videos-panel'
import './operator.scss'

const TABS = [
  { key: 'articles', title: '文章' },
  { key: 'videos', title: '视频' },
  { key: 'feedback', title: '反馈' },
  { key: 'features', title: '应用' },
  { key: 'hospitals', title: '医院' },
  { key: 'actions', title: '操作记录' },
] as const
type Tab = (typeof TABS)[number]['key']

/**
 * 运营后台. Someone who is not an operator by their profile is told so (仅运营人员可以使用此功能) with
 * 返回, no 重试 and no operator call; the features call is still refused by the server for anyone
 * else, and its answer is shown the same way.
 */
export function OperatorHome() {
  const own = useOwnProfile()
  if (own.error) return <PageState status="error" message={own.error} onRetry={own.reload} />
  if (!own.data) return <PageState status="loading" />
  if (own.data.role !== 'operator') {
    return (
      <PageState
        status="empty"
        message={OPERATORS_ONLY}
        action={{ text: '返回', onClick: () => void back('user') }}
      />
    )
  }
  return <OperatorConsole />
}

function OperatorConsole() {
  const [tab, setTab] = useState<Tab>('articles')
  const features = useFeatures()
  if (features.error) {
    return <PageState status="error" message={features.error} onRetry={features.reload} />
  }
  if (!features.data) return <PageState status="loading" />
  return (
    <View className="operator">
      <TabStrip tabs={TABS} active={tab} onChange={setTab} />
      <View className="operator__body">
        {tab === 'articles' && <ArticlesPanel />}
        {tab === 'videos' && <VideosPanel />}
        {tab === 'feedback' && <FeedbackPanel />}
        {tab === 'features' && <FeaturesPanel features={features} />}
        {tab === 'hospitals' && <HospitalsPanel />}
        {tab === 'actions' && <ActionsPanel />}
      </View>
    </View>
  )
}
