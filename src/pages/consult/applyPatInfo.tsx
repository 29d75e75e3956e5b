import { UnderConstruction } from '../../components/under-construction'

export default function ConsultApplyPatInfoPage() {
  return <UnderConstruction />
}
