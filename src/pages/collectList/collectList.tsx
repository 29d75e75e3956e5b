import { RequireLogin } from '../../components/require-login'
import { FavouritesView } from '../../features/favourites/components/favourites-view'
import { useUndoableRemove } from '../../features/favourites/hooks/use-favourites'
import { openMessageLink } from '../../features/messages/link'
import { showToast } from '../../platform/ui'

function FavouritesContent() {
  const undo = useUndoableRemove()
  return (
    <FavouritesView
      undo={undo}
      onOpen={(item) =>
        void openMessageLink(item.link).then((opened) => {
          if (!opened) showToast('该页面即将上线')
        })
      }
    />
  )
}

/** 我的收藏: articles, videos, hospitals and records, in tabs; 取消收藏 with 撤销. */
export default function CollectListPage() {
  return (
    <RequireLogin text="登录后查看我的收藏">
      <FavouritesContent />
    </RequireLogin>
  )
}
