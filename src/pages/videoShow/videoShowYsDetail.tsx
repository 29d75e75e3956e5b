import { UnderConstruction } from '../../components/under-construction'

export default function VideoShowVideoShowYsDetailPage() {
  return <UnderConstruction />
}
