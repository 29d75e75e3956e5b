import { UnderConstruction } from '../../components/under-construction'

export default function PrivacyPolicyPage() {
  return <UnderConstruction />
}
