import { UnderConstruction } from '../../components/under-construction'

export default function UserPrivacyPage() {
  return <UnderConstruction />
}
