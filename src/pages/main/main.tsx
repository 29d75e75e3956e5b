import { HomeView } from '../../features/home/components/home-view'

export default function HomePage() {
  return <HomeView />
}
