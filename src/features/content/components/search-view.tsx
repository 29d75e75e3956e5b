import { Text, View } from '@tarojs/components'
import { SearchBar } from '@nutui/nutui-react-taro'
import { PageState } from '@/components/page-state'
import { RefreshList } from '@/components/refresh-list'
import { TabStrip } from '@/components/tab-strip'
import type { SearchHit, SearchKind } from '@/services/content'
import { type SearchModel, SEARCH_TABS, useKindResults } from '../hooks/use-search'
import './search.scss'

const KIND_LABELS: Record<SearchKind, string> = {
  article: '文章',
  video: '视频',
  hospital: '医院',
  expert: '专家',
}

/** Matched parts in bold and the product colour: runs from the server, no HTML. */
export function Highlighted({ runs, className }: { runs: [string, boolean][]; className: string }) {
  return (
    <Text className={className}>
      {runs.map(([text, on], i) =>
        on ? (
          <Text key={i} className="search__mark">
            {text}
          </Text>
        ) : (
          text
        ),
      )}
    </Text>
  )
}

function HitRow({ hit, onOpen }: { hit: SearchHit; onOpen: (hit: SearchHit) => void }) {
  return (
    <View className="search__hit" onClick={() => onOpen(hit)}>
      <View className="search__hit-head">
        <Text className="search__kind">{KIND_LABELS[hit.kind]}</Text>
        <Highlighted runs={hit.title} className="search__hit-title" />
      </View>
      <Highlighted runs={hit.snippet} className="search__hit-snippet" />
    </View>
  )
}

function KindResults({
  q,
  kind,
  onOpen,
}: {
  q: string
  kind: SearchKind
  onOpen: (hit: SearchHit) => void
}) {
  const list = useKindResults(q, kind)
  return (
    <RefreshList
      list={list}
      keyOf={(hit) => `${hit.kind}:${hit.id}`}
      renderItem={(hit) => <HitRow hit={hit} onOpen={onOpen} />}
      emptyText={`没有找到相关${KIND_LABELS[kind]}`}
    />
  )
}

export function SearchView({
  model,
  onOpen,
}: {
  model: SearchModel
  onOpen: (hit: SearchHit) => void
}) {
  return (
    <View className="search">
      <SearchBar
        className="search__bar"
        value={model.input}
        placeholder="搜索文章、视频、医院、专家"
        maxLength={30}
        clearable
        right={
          <Text className="search__go" onClick={() => model.submit()}>
            搜索
          </Text>
        }
        onChange={model.setInput}
        onSearch={(value) => model.submit(value)}
        onClear={model.reset}
      />
      {model.query === null ? (
        <View className="search__start">
          {model.signedIn && model.history.length > 0 && (
            <View className="search__section">
              <View className="search__section-head">
                <Text className="search__section-title">搜索记录</Text>
                <Text className="search__clear" onClick={() => void model.removeHistory()}>
                  清空
                </Text>
              </View>
              <View className="search__chips">
                {model.history.map((item) => (
                  <View key={item.id} className="search__chip">
                    <Text className="search__chip-word" onClick={() => model.submit(item.q)}>
                      {item.q}
                    </Text>
                    <Text
                      className="search__chip-remove"
                      aria-label={`删除搜索记录 ${item.q}`}
                      onClick={() => void model.removeHistory(item.id)}
                    >
                      ×
                    </Text>
                  </View>
                ))}
              </View>
            </View>
          )}
          {model.hot.length > 0 && (
            <View className="search__section">
              <View className="search__section-head">
                <Text className="search__section-title">热门搜索</Text>
              </View>
              <View className="search__chips">
                {model.hot.map((word) => (
                  <View key={word} className="search__chip" onClick={() => model.submit(word)}>
                    <Text>{word}</Text>
                  </View>
                ))}
              </View>
            </View>
          )}
        </View>
      ) : (
        <View>
          <TabStrip
            tabs={SEARCH_TABS.map((tab) => ({
              ...tab,
              count: tab.key === 'all' || !model.totals ? undefined : model.totals[tab.key],
            }))}
            active={model.tab}
            onChange={model.setTab}
          />
          {model.tab === 'all' ? (
            model.preview.status === 'loading' ? (
              <PageState status="loading" />
            ) : model.preview.status === 'error' ? (
              <PageState
                status="error"
                message={model.preview.error}
                onRetry={() => model.submit(model.query!)}
              />
            ) : model.preview.hits.length === 0 ? (
              <PageState status="empty" message={`没有找到与“${model.query}”相关的内容`} />
            ) : (
              <View>
                {model.preview.hits.map((hit) => (
                  <HitRow key={`${hit.kind}:${hit.id}`} hit={hit} onOpen={onOpen} />
                ))}
              </View>
            )
          ) : (
            <KindResults
              key={`${model.query}:${model.tab}`}
              q={model.query}
              kind={model.tab}
              onOpen={onOpen}
            />
          )}
        </View>
      )}
    </View>
  )
}
