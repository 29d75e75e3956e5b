import { useDidShow } from '@tarojs/taro'
import { HomeView } from '../../features/home/components/home-view'
import { showUnreadOnMineTab } from '../../services/tab-badge'
import { countUnreadMessages } from '../../services/messages'
import { useSessionStore } from '../../stores/session-store'

export default function HomePage() {
  // A message that arrived since (a grant viewed, a reply) shows on the Mine tab from here too.
  useDidShow(() => {
    if (useSessionStore.getState().token === null) return
    countUnreadMessages().then(showUnreadOnMineTab, () => undefined)
  })
  return <HomeView />
}
