import { UnderConstruction } from '../../components/under-construction'

export default function ExpertPerfectExpertPerfectPage() {
  return <UnderConstruction />
}
