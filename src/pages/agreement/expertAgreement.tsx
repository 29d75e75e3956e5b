import { UnderConstruction } from '../../components/under-construction'

export default function AgreementExpertAgreementPage() {
  return <UnderConstruction />
}
