import { UnderConstruction } from '../../components/under-construction'

export default function PersonalImageIndexWeixinPage() {
  return <UnderConstruction />
}
