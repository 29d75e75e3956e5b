import { UnderConstruction } from '../../components/under-construction'

export default function MessageDocDoPage() {
  return <UnderConstruction />
}
