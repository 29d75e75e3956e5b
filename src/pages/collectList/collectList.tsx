import { UnderConstruction } from '../../components/under-construction'

export default function CollectListCollectListPage() {
  return <UnderConstruction />
}
