import { UnderConstruction } from '../../components/under-construction'

export default function IntegrationIntegrationPage() {
  return <UnderConstruction />
}
