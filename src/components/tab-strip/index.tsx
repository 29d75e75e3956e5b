import { ScrollView, Text, View } from '@tarojs/components'
import './index.scss'

export interface TabStripTab<K extends string> {
  key: K
  title: string
  /** Shown after the title when given (收藏 2, 文章 12). */
  count?: number
}

export interface TabStripProps<K extends string> {
  tabs: readonly TabStripTab<K>[]
  active: K
  onChange: (key: K) => void
}

/**
 * A plain, horizontally scrolling tab header. NutUI's Tabs measures itself with selector queries,
 * which a page that is still mounting (and Jest) cannot answer (see the login page); this one has
 * nothing to measure. When the tabs are wider than the screen (运营后台's eight), the edge where
 * more tabs wait fades out (sticky gradients, index.scss), so a cut tab reads as "scroll for more".
 * (Not scroll-into-view on tap: Taro's H5 scroll-view centres the strip vertically too, moving the
 * page.)
 */
export function TabStrip<K extends string>({ tabs, active, onChange }: TabStripProps<K>) {
  return (
    <ScrollView className="tab-strip" scrollX enhanced showScrollbar={false}>
      <View className="tab-strip__row" role="tablist">
        {tabs.map((tab) => (
          <View
            key={tab.key}
            role="tab"
            aria-selected={tab.key === active}
            className={`tab-strip__tab${tab.key === active ? ' tab-strip__tab--active' : ''}`}
            onClick={() => tab.key !== active && onChange(tab.key)}
          >
            <Text>{tab.title}</Text>
            {tab.count !== undefined && <Text className="tab-strip__count"> {tab.count}</Text>}
          </View>
        ))}
      </View>
    </ScrollView>
  )
}
