import { UnderConstruction } from '../../../components/under-construction'

export default function UAvatarCropperUAvatarCropperPage() {
  return <UnderConstruction />
}
