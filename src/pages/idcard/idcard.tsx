import { UnderConstruction } from '../../components/under-construction'

export default function IdcardIdcardPage() {
  return <UnderConstruction />
}
