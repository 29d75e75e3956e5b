import { UnderConstruction } from '../../components/under-construction'

export default function PersonalReportDetailPage() {
  return <UnderConstruction />
}
