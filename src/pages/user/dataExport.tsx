import { UnderConstruction } from '../../components/under-construction'

export default function UserDataExportPage() {
  return <UnderConstruction />
}
