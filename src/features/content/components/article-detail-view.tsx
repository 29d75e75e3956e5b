import { RichText, Text, View } from '@tarojs/components'
import { PageState } from '@/components/page-state'
import { articleHtmlForDevice } from '@/services/media'
import { timeFormat } from '@/utils/time'
import type { ArticleModel } from '../hooks/use-article'
import './content.scss'

export interface ArticleDetailViewProps {
  model: ArticleModel
  /** Signed out: 赞 and 收藏 go to login first. */
  onNeedLogin: () => void
  onShare: () => void
}

/** 资讯详情: title, meta, the sanitised body (RichText), the source, and 赞 / 收藏 / 分享 at the bottom. */
export function ArticleDetailView({ model, onNeedLogin, onShare }: ArticleDetailViewProps) {
  const { article } = model
  if (model.status === 'loading' && !article) return <PageState status="loading" />
  if (model.status === 'error' || !article) {
    return <PageState status="error" message={model.error} onRetry={model.retry} />
  }
  const guarded = (action: () => Promise<void>) => () =>
    model.signedIn ? void action() : onNeedLogin()
  return (
    <View className="article">
      <View className="article__head">
        <Text className="article__title">{article.title}</Text>
        <View className="article__meta">
          <Text>{article.typeName}</Text>
          <Text>{timeFormat(article.publishedAt, 'yyyy-mm-dd')}</Text>
          <Text>阅读 {model.readCount}</Text>
          {article.author && <Text>{article.author}</Text>}
        </View>
      </View>
      {article.demo && (
        <Text className="article__note">
          演示内容：本文由医影通编辑部为演示撰写，仅供一般健康科普，不能代替医生对您个人情况的诊断。
        </Text>
      )}
      <View className="article__body">
        <RichText nodes={articleHtmlForDevice(article.html)} />
      </View>
      {article.source && <Text className="article__source">来源：{article.source}</Text>}
      <View className="article__bar">
        <View
          className={`article__action${model.like.on ? ' article__action--on' : ''}`}
          role="button"
          aria-pressed={model.like.on}
          onClick={guarded(model.like.toggle)}
        >
          {model.like.on ? '已赞' : '赞'} {model.like.count}
        </View>
        <View
          className={`article__action${model.favourite.on ? ' article__action--on' : ''}`}
          role="button"
          aria-pressed={model.favourite.on}
          onClick={guarded(model.favourite.toggle)}
        >
          {model.favourite.on ? '已收藏' : '收藏'} {model.favourite.count}
        </View>
        <View className="article__action" role="button" onClick={onShare}>
          分享
        </View>
      </View>
    </View>
  )
}
