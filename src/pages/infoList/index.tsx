import { UnderConstruction } from '../../components/under-construction'

export default function InfoListIndexPage() {
  return <UnderConstruction />
}
