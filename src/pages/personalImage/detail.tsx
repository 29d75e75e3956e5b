import { UnderConstruction } from '../../components/under-construction'

export default function PersonalImageDetailPage() {
  return <UnderConstruction />
}
