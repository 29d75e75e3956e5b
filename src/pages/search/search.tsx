import { UnderConstruction } from '../../components/under-construction'

export default function SearchSearchPage() {
  return <UnderConstruction />
}
