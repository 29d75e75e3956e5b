import { UnderConstruction } from '../../components/under-construction'

export default function PersonalReportDetailYsPage() {
  return <UnderConstruction />
}
