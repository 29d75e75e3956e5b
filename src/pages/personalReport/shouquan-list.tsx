import { UnderConstruction } from '../../components/under-construction'

export default function PersonalReportShouquanListPage() {
  return <UnderConstruction />
}
