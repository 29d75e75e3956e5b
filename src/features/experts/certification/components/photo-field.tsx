import { Image, Text, View } from '@tarojs/components'
import {
  EXPERT_PHOTO_KIND_LABELS,
  EXPERT_PHOTOS_PER_KIND,
  EXPERT_REQUIRED_PHOTO_KINDS,
  type ExpertPhotoKind,
} from '@contract/main/experts'
import { useAuthorisedImage } from '@/components/authorised-image/use-authorised-image'
import type { ExpertApplication } from '@/services/experts'
import type { UploadingPhoto } from '../hooks/use-certification-form'

/** A certificate photo: private, so fetched with the token, never by a public address. */
export function CertificatePhoto({ path, label }: { path: string; label: string }) {
  const image = useAuthorisedImage(path)
  return image.status === 'ready' ? (
    <Image className="cert-photo__thumb" src={image.src} mode="aspectFill" aria-label={label} />
  ) : (
    <View className="cert-photo__thumb cert-photo__thumb--empty" aria-label={label}>
      {image.status === 'failed' ? '加载失败' : ''}
    </View>
  )
}

export interface PhotoFieldProps {
  kind: ExpertPhotoKind
  application: ExpertApplication | null
  uploading: readonly UploadingPhoto[]
  onAdd: () => void
  onRemove: (photoId: string) => void
}

/** One kind of certificate photo: what is uploaded, what is on its way, and room for more. */
export function PhotoField({ kind, application, uploading, onAdd, onRemove }: PhotoFieldProps) {
  const label = EXPERT_PHOTO_KIND_LABELS[kind]
  const photos = application?.photos.filter((photo) => photo.kind === kind) ?? []
  const mine = uploading.filter((photo) => photo.kind === kind)
  const required = EXPERT_REQUIRED_PHOTO_KINDS.includes(kind)
  const count = photos.length + mine.length
  return (
    <View className="cert-photo">
      <View className="cert-photo__head">
        <Text className="cert-photo__label">{label}</Text>
        <Text className={`cert-photo__tag${required ? ' cert-photo__tag--required' : ''}`}>
          {required ? '必传' : '选传'}
        </Text>
        <Text className="cert-photo__count">
          {count}/{EXPERT_PHOTOS_PER_KIND}
        </Text>
      </View>
      <View className="cert-photo__list">
        {photos.map((photo, index) => (
          <View key={photo.id} className="cert-photo__item">
            <CertificatePhoto path={photo.path} label={`${label}第 ${index + 1} 张`} />
            <View
              className="cert-photo__remove"
              role="button"
              aria-label={`删除${label}第 ${index + 1} 张`}
              onClick={() => onRemove(photo.id)}
            >
              ×
            </View>
          </View>
        ))}
        {mine.map((photo) => (
          <View key={photo.localPath} className="cert-photo__item">
            <Image className="cert-photo__thumb" src={photo.localPath} mode="aspectFill" />
            <Text className="cert-photo__uploading">上传中</Text>
          </View>
        ))}
        {count < EXPERT_PHOTOS_PER_KIND && (
          <View
            className="cert-photo__add"
            role="button"
            aria-label={`上传${label}`}
            onClick={onAdd}
          >
            <Text className="cert-photo__plus">+</Text>
            <Text className="cert-photo__add-text">拍照或选图</Text>
          </View>
        )}
      </View>
    </View>
  )
}
