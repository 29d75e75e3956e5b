import { Text, View } from '@tarojs/components'
import { useDidShow } from '@tarojs/taro'
import { Button } from '@nutui/nutui-react-taro'
import { RefreshList } from '@/components/refresh-list'
import { navigate } from '@/services/navigate'
import { operatorApi, type OperatorArticle } from '@/services/operator'
import { timeFormat } from '@/utils/time'
import { act, useArticles } from '../hooks/use-operator'

/** Every article, drafts and unpublished ones included, newest change first. */
export function ArticlesPanel() {
  const list = useArticles()
  // Back from the editor: the list shows what was saved.
  useDidShow(() => void list.refresh())
  const setState = (article: OperatorArticle, state: 'published' | 'unpublished') =>
    act(
      () => operatorApi.setArticleState(article.id, state),
      state === 'published' ? '已发布' : '已下架',
      list.refresh,
    )
  return (
    <View>
      <View className="operator__toolbar">
        <Button type="primary" size="small" onClick={() => void navigate('operatorArticle')}>
          新建文章
        </Button>
      </View>
      <RefreshList
        list={list}
        keyOf={(article) => article.id}
        emptyText="还没有文章"
        renderItem={(article) => (
          <View className="operator__row">
            <Text className="operator__title">{article.title}</Text>
            <Text className="operator__meta">
              {article.typeName} ·{' '}
              <Text className={`operator__state operator__state--${article.state}`}>
                {article.stateLabel}
              </Text>{' '}
              · 阅读 {article.readCount} · {timeFormat(article.updatedAt, 'yyyy-mm-dd hh:MM')}
            </Text>
            <View className="operator__actions">
              <Button
                size="small"
                onClick={() => void navigate('operatorArticle', { id: article.id })}
              >
                编辑
              </Button>
              {article.state === 'published' ? (
                <Button size="small" onClick={() => void setState(article, 'unpublished')}>
                  下架
                </Button>
              ) : (
                <Button
                  size="small"
                  type="primary"
                  onClick={() => void setState(article, 'published')}
                >
                  发布
                </Button>
              )}
            </View>
          </View>
        )}
      />
    </View>
  )
}
