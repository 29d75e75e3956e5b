import { UnderConstruction } from '../../components/under-construction'

export default function WebviewWebviewPage() {
  return <UnderConstruction />
}
