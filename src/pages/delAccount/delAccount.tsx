import { UnderConstruction } from '../../components/under-construction'

export default function DelAccountDelAccountPage() {
  return <UnderConstruction />
}
