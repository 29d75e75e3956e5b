import { UnderConstruction } from '../../components/under-construction'

export default function ScanPageScanPage2Page() {
  return <UnderConstruction />
}
