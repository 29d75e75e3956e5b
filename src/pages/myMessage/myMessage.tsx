import { UnderConstruction } from '../../components/under-construction'

export default function MyMessageMyMessagePage() {
  return <UnderConstruction />
}
