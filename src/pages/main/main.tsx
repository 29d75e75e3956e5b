import { useDidShow } from '@tarojs/taro'
import { HomeView } from '../../features/home/components/home-view'
import { refreshUnreadBadge } from '../../features/home/unread-badge'
import { useSessionStore } from '../../stores/session-store'

export default function HomePage() {
  // A message that arrived since (a grant viewed, a reply) shows on the Mine tab from here too.
  useDidShow(() => {
    if (useSessionStore.getState().token !== null) refreshUnreadBadge()
  })
  return <HomeView />
}
