import { UnderConstruction } from '../../components/under-construction'

export default function ConsultExaminePage() {
  return <UnderConstruction />
}
