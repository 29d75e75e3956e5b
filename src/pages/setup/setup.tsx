import { SetupView } from '../../features/settings/components/setup-view'
import { useSetup } from '../../features/settings/hooks/use-setup'

export default function SetupPage() {
  const model = useSetup()
  return <SetupView model={model} />
}
