import { UnderConstruction } from '../../components/under-construction'

export default function AgreementAgreementPage() {
  return <UnderConstruction />
}
