import { UnderConstruction } from '../../components/under-construction'

export default function PersonalReportIndexPage() {
  return <UnderConstruction />
}
