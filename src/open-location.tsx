import { UnderConstruction } from './components/under-construction'

export default function OpenLocationPage() {
  return <UnderConstruction />
}
