import { UnderConstruction } from '../../components/under-construction'

export default function VideoShowVideoShowYsPage() {
  return <UnderConstruction />
}
