import { Image, Text, View } from '@tarojs/components'
import type { ArticleSummary } from '@/services/content'
import { mediaUrl } from '@/services/media'
import { timeFormat } from '@/utils/time'

/** One article in a list: title, summary, type, date and counts; the cover on the right. */
export function ArticleCard({ article, onOpen }: { article: ArticleSummary; onOpen: () => void }) {
  return (
    <View className="article-card" onClick={onOpen}>
      <View className="article-card__main">
        <Text className="article-card__title">{article.title}</Text>
        <Text className="article-card__summary">{article.summary}</Text>
        <View className="article-card__meta">
          {article.demo && <Text className="article-card__demo">演示</Text>}
          <Text>{article.typeName}</Text>
          <Text>{timeFormat(article.publishedAt, 'yyyy-mm-dd')}</Text>
          <Text>阅读 {article.readCount}</Text>
          <Text>赞 {article.likeCount}</Text>
        </View>
      </View>
      {article.coverPath && (
        <Image
          className="article-card__cover"
          src={mediaUrl(article.coverPath)}
          mode="aspectFill"
          lazyLoad
        />
      )}
    </View>
  )
}
