import { UnderConstruction } from '../../components/under-construction'

export default function UserNoticePage() {
  return <UnderConstruction />
}
