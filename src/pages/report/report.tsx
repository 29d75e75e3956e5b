import { UnderConstruction } from '../../components/under-construction'

export default function ReportReportPage() {
  return <UnderConstruction />
}
