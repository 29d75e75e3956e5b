import { UnderConstruction } from '../../components/under-construction'

export default function PersonalImageImageHospitalPage() {
  return <UnderConstruction />
}
