import { UnderConstruction } from './components/under-construction'

export default function ChooseLocationPage() {
  return <UnderConstruction />
}
