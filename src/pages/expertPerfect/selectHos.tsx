import { UnderConstruction } from '../../components/under-construction'

export default function ExpertPerfectSelectHosPage() {
  return <UnderConstruction />
}
