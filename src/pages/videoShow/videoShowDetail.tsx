import { UnderConstruction } from '../../components/under-construction'

export default function VideoShowVideoShowDetailPage() {
  return <UnderConstruction />
}
