import { UnderConstruction } from '../../components/under-construction'

export default function UserSetupPage() {
  return <UnderConstruction />
}
