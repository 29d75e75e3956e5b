import { UnderConstruction } from '../../components/under-construction'

export default function VideoShowVideoShowPage() {
  return <UnderConstruction />
}
