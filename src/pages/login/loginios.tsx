import { UnderConstruction } from '../../components/under-construction'

export default function LoginLoginiosPage() {
  return <UnderConstruction />
}
