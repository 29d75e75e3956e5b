import { useState, type ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import { usePageScroll, useReachBottom } from '@tarojs/taro'
import { PullToRefresh } from '@nutui/nutui-react-taro'
import { PageState } from '../page-state'
import { LIST_DEFAULTS, type PagedList } from './use-paged-list'
import './index.scss'

export { usePagedList, LIST_DEFAULTS } from './use-paged-list'
export type { PagedList, PageResult, FetchPage } from './use-paged-list'

export const LIST_TEXTS = {
  pulling: '下拉刷新',
  canRelease: '释放更新',
  loading: '加载中 ...',
  end: '-- END --',
  empty: '~ 空空如也 ~',
  loadMoreError: '加载失败，点击重试',
} as const

/** Height of the 下拉刷新 / 释放更新 strip, CSS px. */
const PULL_HEAD_HEIGHT = 50

export interface RefreshListProps<T> {
  list: PagedList<T>
  renderItem: (item: T, index: number) => ReactNode
  keyOf: (item: T) => string | number
  /** Text of the empty state; defaults to the spec's "~ 空空如也 ~". */
  emptyText?: string
}

/**
 * A page's list with pull-to-refresh and load-more on the page's own scroll (the page config sets
 * onReachBottomDistance to the spec's 80), so long lists scroll natively on a cheap phone.
 */
export function RefreshList<T>({ list, renderItem, keyOf, emptyText }: RefreshListProps<T>) {
  const [scrollTop, setScrollTop] = useState(0)
  usePageScroll(({ scrollTop: top }) => setScrollTop(top))
  useReachBottom(() => {
    if (list.status === 'ready' && list.loadMore === 'idle') void list.loadNext()
  })

  if (list.items.length === 0) {
    if (list.status === 'loading') return <PageState status="loading" />
    if (list.status === 'error') return <PageState status="error" onRetry={list.refresh} />
    return <PageState status="empty" message={emptyText ?? LIST_TEXTS.empty} />
  }

  return (
    <PullToRefresh
      className="refresh-list"
      scrollTop={scrollTop}
      threshold={LIST_DEFAULTS.pullDistance}
      headHeight={PULL_HEAD_HEIGHT}
      completeDelay={LIST_DEFAULTS.finishDelay}
      pullingText={LIST_TEXTS.pulling}
      canReleaseText={LIST_TEXTS.canRelease}
      refreshingText={LIST_TEXTS.loading}
      completeText=""
      onRefresh={list.refresh}
    >
      <View className="refresh-list__items">
        {list.items.map((item, index) => (
          <View key={keyOf(item)} className="refresh-list__item">
            {renderItem(item, index)}
          </View>
        ))}
      </View>
      <ListFooter list={list} />
    </PullToRefresh>
  )
}

function ListFooter<T>({ list }: { list: PagedList<T> }) {
  if (list.loadMore === 'loading')
    return <Text className="refresh-list__footer">{LIST_TEXTS.loading}</Text>
  if (list.loadMore === 'error') {
    return (
      <Text className="refresh-list__footer refresh-list__footer--error" onClick={list.loadNext}>
        {LIST_TEXTS.loadMoreError}
      </Text>
    )
  }
  if (list.loadMore === 'nomore' && list.items.length >= LIST_DEFAULTS.noMoreMinItems) {
    return <Text className="refresh-list__footer">{LIST_TEXTS.end}</Text>
  }
  return null
}
