import { memo, useState, type ReactNode } from 'react'
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
  // PullToRefresh only asks whether the page is at its top (a pull elsewhere is a scroll), so only
  // that is kept: React skips the render when it has not changed, which is every scroll event but
  // the ones that leave or reach the top. Keeping the offset itself re-rendered every row per event.
  const [atTop, setAtTop] = useState(true)
  usePageScroll(({ scrollTop }) => setAtTop(scrollTop <= 0))
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
      scrollTop={atTop ? 0 : 1}
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
          <ListRow key={keyOf(item)} item={item} index={index} renderItem={renderItem} />
        ))}
      </View>
      <ListFooter list={list} />
    </PullToRefresh>
  )
}

interface ListRowProps<T> {
  item: T
  index: number
  renderItem: (item: T, index: number) => ReactNode
}

/** A row renders again only when its item, its place or the render function changes. */
const ListRow = memo(function ListRow<T>({ item, index, renderItem }: ListRowProps<T>) {
  return <View className="refresh-list__item">{renderItem(item, index)}</View>
}) as <T>(props: ListRowProps<T>) => ReactNode

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
