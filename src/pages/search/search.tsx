import { SearchView } from '../../features/content/components/search-view'
import { useSearch } from '../../features/content/hooks/use-search'
import { openMessageLink } from '../../features/messages/link'
import { showToast } from '../../platform/ui'

/** 搜索: one search over articles, videos, hospitals and experts, with history and hot words. */
export default function SearchPage() {
  return (
    <SearchView
      model={useSearch()}
      onOpen={(hit) =>
        void openMessageLink(hit.link).then((opened) => {
          // Every kind opens its page; a link this version does not know came from a newer server.
          if (!opened) showToast('暂时无法打开，请更新到最新版本后重试')
        })
      }
    />
  )
}
