import { UnderConstruction } from '../../components/under-construction'

export default function InfoListInfoListPage() {
  return <UnderConstruction />
}
