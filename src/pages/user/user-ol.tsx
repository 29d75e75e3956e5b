import { UnderConstruction } from '../../components/under-construction'

export default function UserUserOlPage() {
  return <UnderConstruction />
}
