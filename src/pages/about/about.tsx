import { AboutView } from '../../features/settings/components/about-view'
import { useAppVersion } from '../../features/settings/hooks/use-about'

export default function AboutPage() {
  const version = useAppVersion()
  return <AboutView version={version} />
}
