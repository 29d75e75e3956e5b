import { UnderConstruction } from '../../components/under-construction'

export default function DocQuestListDocQuestListPage() {
  return <UnderConstruction />
}
