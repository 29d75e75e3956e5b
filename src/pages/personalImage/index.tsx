import { UnderConstruction } from '../../components/under-construction'

export default function PersonalImageIndexPage() {
  return <UnderConstruction />
}
