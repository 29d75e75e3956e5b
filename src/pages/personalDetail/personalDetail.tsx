import { UnderConstruction } from '../../components/under-construction'

export default function PersonalDetailPersonalDetailPage() {
  return <UnderConstruction />
}
