import { View } from '@tarojs/components'
import { Popup } from '@nutui/nutui-react-taro'
import { PageState } from '@/components/page-state'
import { describeError } from '@/services/api'
import { listGrantViews, type Grant } from '@/services/grants'
import { useResource } from '@/hooks/use-resource'
import { audienceLabel } from '../format'
import { GrantViewsList } from './grant-views-list'

function Views({ grant }: { grant: Grant }) {
  const views = useResource(grant.id, () => listGrantViews(grant.id))
  if (views.status === 'loading') return <PageState status="loading" />
  if (views.status === 'error') {
    return (
      <PageState
        status="error"
        message={describeError(views.error, '加载失败，请检查网络后重试')}
        onRetry={views.reload}
      />
    )
  }
  return <GrantViewsList views={views.data} />
}

/** A grant's view log, over the list. */
export function GrantViewsSheet({ grant, onClose }: { grant: Grant | null; onClose: () => void }) {
  return (
    <Popup
      visible={grant !== null}
      position="bottom"
      round
      title={grant ? `查看记录 · ${audienceLabel(grant)}` : '查看记录'}
      onClose={onClose}
    >
      <View className="grant-views-sheet">{grant && <Views grant={grant} />}</View>
    </Popup>
  )
}
