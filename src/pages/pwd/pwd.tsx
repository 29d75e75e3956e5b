import { UnderConstruction } from '../../components/under-construction'

export default function PwdPwdPage() {
  return <UnderConstruction />
}
