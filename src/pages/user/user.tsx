import { MineView } from '../../features/mine/components/mine-view'

export default function MinePage() {
  // Session wiring comes with src/stores; until then the page shows the signed-out state.
  return <MineView loggedIn={false} userName="" />
}
