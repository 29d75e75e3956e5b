import { UnderConstruction } from '../../components/under-construction'

export default function PersonalImageListPage() {
  return <UnderConstruction />
}
