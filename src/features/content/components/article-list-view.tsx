import { View } from '@tarojs/components'
import { RefreshList } from '@/components/refresh-list'
import { TabStrip } from '@/components/tab-strip'
import type { ArticleSummary } from '@/services/content'
import { useArticleList } from '../hooks/use-articles'
import { ArticleCard } from './article-card'
import './content.scss'

function ArticleTab({
  typeKey,
  onOpen,
}: {
  typeKey: string
  onOpen: (article: ArticleSummary) => void
}) {
  const list = useArticleList(typeKey)
  return (
    <RefreshList
      list={list}
      keyOf={(article) => article.id}
      renderItem={(article) => <ArticleCard article={article} onOpen={() => onOpen(article)} />}
      emptyText="暂无资讯"
    />
  )
}

export interface ArticleListViewProps {
  tabs: { key: string; title: string }[]
  active: string
  onTab: (key: string) => void
  onOpen: (article: ArticleSummary) => void
}

/** 健康资讯: type tabs over a pull-to-refresh list; each tab is its own list (keyed). */
export function ArticleListView({ tabs, active, onTab, onOpen }: ArticleListViewProps) {
  return (
    <View className="content-page">
      <TabStrip tabs={tabs} active={active} onChange={onTab} />
      <ArticleTab key={active} typeKey={active} onOpen={onOpen} />
    </View>
  )
}
