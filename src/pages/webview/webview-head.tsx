import { UnderConstruction } from '../../components/under-construction'

export default function WebviewWebviewHeadPage() {
  return <UnderConstruction />
}
