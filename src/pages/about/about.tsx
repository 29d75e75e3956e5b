import { UnderConstruction } from '../../components/under-construction'

export default function AboutAboutPage() {
  return <UnderConstruction />
}
