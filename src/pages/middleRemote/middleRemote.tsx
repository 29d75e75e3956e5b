import { UnderConstruction } from '../../components/under-construction'

export default function MiddleRemoteMiddleRemotePage() {
  return <UnderConstruction />
}
