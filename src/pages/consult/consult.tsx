import { UnderConstruction } from '../../components/under-construction'

export default function ConsultConsultPage() {
  return <UnderConstruction />
}
