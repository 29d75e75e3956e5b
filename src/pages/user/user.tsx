import { MineView } from '../../features/mine/components/mine-view'
import { useMine } from '../../features/mine/hooks/use-mine'

export default function MinePage() {
  const model = useMine()
  return <MineView {...model} />
}
