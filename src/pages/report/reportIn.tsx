import { UnderConstruction } from '../../components/under-construction'

export default function ReportReportInPage() {
  return <UnderConstruction />
}
