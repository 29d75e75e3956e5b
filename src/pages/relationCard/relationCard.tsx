import { UnderConstruction } from '../../components/under-construction'

export default function RelationCardRelationCardPage() {
  return <UnderConstruction />
}
