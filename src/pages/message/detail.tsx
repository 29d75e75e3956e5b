import { UnderConstruction } from '../../components/under-construction'

export default function MessageDetailPage() {
  return <UnderConstruction />
}
