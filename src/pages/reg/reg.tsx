import { UnderConstruction } from '../../components/under-construction'

export default function RegRegPage() {
  return <UnderConstruction />
}
