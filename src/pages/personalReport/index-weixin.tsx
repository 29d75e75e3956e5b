import { UnderConstruction } from '../../components/under-construction'

export default function PersonalReportIndexWeixinPage() {
  return <UnderConstruction />
}
