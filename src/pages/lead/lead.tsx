import { UnderConstruction } from '../../components/under-construction'

export default function LeadLeadPage() {
  return <UnderConstruction />
}
