import { SetupView } from '../../features/settings/components/setup-view'
import { useSetup } from '../../features/settings/hooks/use-setup'

export default function UserSetupPage() {
  const model = useSetup()
  return <SetupView model={model} />
}
