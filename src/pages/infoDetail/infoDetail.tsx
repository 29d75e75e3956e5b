import { useParams } from '@/hooks/use-params'
import { useShareCard } from '../../features/sharing/owner/hooks/use-share-card'
import { ArticleDetailView } from '../../features/content/components/article-detail-view'
import { ContentMissing } from '../../features/content/components/content-missing'
import { useArticle } from '../../features/content/hooks/use-article'
import { shareCurrentPage } from '../../features/content/share'
import { navigate, routeUrl } from '../../services/navigate'

/** 资讯详情: the article, its read counted, 赞 / 收藏 / 分享. */
export default function InfoDetailPage() {
  const params = useParams()
  const id = params.id ?? ''
  const model = useArticle(id)
  // The share card names the article only: no reader's data in a card.
  useShareCard(
    model.article ? { title: model.article.title, path: routeUrl('infoDetail', { id }) } : null,
  )
  if (model.status === 'missing') return <ContentMissing message={model.error} />
  return (
    <ArticleDetailView
      model={model}
      onNeedLogin={() => void navigate('login', { redirect: routeUrl('infoDetail', { id }) })}
      onShare={() => void shareCurrentPage()}
    />
  )
}
