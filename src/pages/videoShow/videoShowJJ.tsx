import { UnderConstruction } from '../../components/under-construction'

export default function VideoShowVideoShowJJPage() {
  return <UnderConstruction />
}
