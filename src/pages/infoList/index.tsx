import { useState } from 'react'
import { useParams } from '@/hooks/use-params'
import { ArticleListView } from '../../features/content/components/article-list-view'
import { ALL_TYPES, useArticleTypes } from '../../features/content/hooks/use-articles'
import { navigate } from '../../services/navigate'

/** 健康资讯 (the spec's second entry to the same list; a typeId opens that tab). */
export default function InfoListIndexPage() {
  const params = useParams()
  const tabs = useArticleTypes()
  const [active, setActive] = useState(params.typeId || ALL_TYPES)
  return (
    <ArticleListView
      tabs={tabs}
      active={active}
      onTab={setActive}
      onOpen={(article) => void navigate('infoDetail', { id: article.id })}
    />
  )
}
