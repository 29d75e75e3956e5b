import { UnderConstruction } from '../../components/under-construction'

export default function ScanPageScanPagePage() {
  return <UnderConstruction />
}
