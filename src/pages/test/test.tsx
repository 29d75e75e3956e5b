import { UnderConstruction } from '../../components/under-construction'

export default function TestTestPage() {
  return <UnderConstruction />
}
