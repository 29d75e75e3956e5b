import { AvatarCropperView } from '../../../features/profile/components/avatar-cropper-view'

export default function AvatarCropperPage() {
  return <AvatarCropperView />
}
