import { UnderConstruction } from '../../components/under-construction'

export default function PersonalReportDetail2Page() {
  return <UnderConstruction />
}
