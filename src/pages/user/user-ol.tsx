import { MineView } from '../../features/mine/components/mine-view'
import { TitleBar } from '../../features/mine/components/title-bar'
import { useMine } from '../../features/mine/hooks/use-mine'

/** 我的 with its own title bar (the route sets navigationStyle custom). */
export default function UserOlPage() {
  const model = useMine()
  return (
    <>
      <TitleBar title="我的" />
      <MineView {...model} />
    </>
  )
}
