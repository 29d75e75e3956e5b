import { UnderConstruction } from '../../components/under-construction'

export default function BarCodeBarCodePage() {
  return <UnderConstruction />
}
