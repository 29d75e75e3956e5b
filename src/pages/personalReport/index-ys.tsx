import { UnderConstruction } from '../../components/under-construction'

export default function PersonalReportIndexYsPage() {
  return <UnderConstruction />
}
