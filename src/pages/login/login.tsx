import { UnderConstruction } from '../../components/under-construction'

export default function LoginLoginPage() {
  return <UnderConstruction />
}
