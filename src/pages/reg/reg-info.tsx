import { UnderConstruction } from '../../components/under-construction'

export default function RegRegInfoPage() {
  return <UnderConstruction />
}
