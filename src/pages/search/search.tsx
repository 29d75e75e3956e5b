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
          // Expert pages come with the consultation issue: say so rather than do nothing.
          if (!opened) showToast('该页面即将上线')
        })
      }
    />
  )
}
