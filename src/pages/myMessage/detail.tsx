import { UnderConstruction } from '../../components/under-construction'

export default function MyMessageDetailPage() {
  return <UnderConstruction />
}
