import { UnderConstruction } from '../../components/under-construction'

export default function SetupSetupPage() {
  return <UnderConstruction />
}
