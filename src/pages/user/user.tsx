import { MineView } from '../../features/mine/components/mine-view'
import { useAppStore } from '../../stores/app-store'

export default function MinePage() {
  const hasLogin = useAppStore((state) => state.hasLogin)
  const userName = useAppStore((state) => state.userName)
  return <MineView loggedIn={hasLogin} userName={userName} />
}
