import { UnderConstruction } from '../../components/under-construction'

export default function ReportReportNewPage() {
  return <UnderConstruction />
}
