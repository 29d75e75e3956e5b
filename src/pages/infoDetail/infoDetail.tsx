import { UnderConstruction } from '../../components/under-construction'

export default function InfoDetailInfoDetailPage() {
  return <UnderConstruction />
}
