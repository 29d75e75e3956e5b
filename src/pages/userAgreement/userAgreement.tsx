import { UnderConstruction } from '../../components/under-construction'

export default function UserAgreementUserAgreementPage() {
  return <UnderConstruction />
}
