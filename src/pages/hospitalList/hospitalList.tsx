import { UnderConstruction } from '../../components/under-construction'

export default function HospitalListHospitalListPage() {
  return <UnderConstruction />
}
