import { UnderConstruction } from '../../components/under-construction'

export default function BindTelBindTelPage() {
  return <UnderConstruction />
}
