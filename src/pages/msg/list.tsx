import { UnderConstruction } from '../../components/under-construction'

export default function MsgListPage() {
  return <UnderConstruction />
}
