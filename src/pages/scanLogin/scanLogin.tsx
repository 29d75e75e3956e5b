import { UnderConstruction } from '../../components/under-construction'

export default function ScanLoginScanLoginPage() {
  return <UnderConstruction />
}
