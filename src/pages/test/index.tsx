import { UnderConstruction } from '../../components/under-construction'

export default function TestIndexPage() {
  return <UnderConstruction />
}
