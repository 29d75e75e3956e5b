import { Image, Text, View } from '@tarojs/components'
import { useAuthorisedImage } from '@/components/authorised-image/use-authorised-image'
import { CONSULT_PICTURES_MAX } from '@/services/consultations'
import type { DraftPicture } from '../draft-store'

function Thumb({ picture, onRemove }: { picture: DraftPicture; onRemove?: () => void }) {
  // The picture is read with the bearer token, like every personal image.
  const image = useAuthorisedImage(picture.url)
  return (
    <View className="picture-grid__item">
      {image.status === 'ready' ? (
        <Image className="picture-grid__image" src={image.src} mode="aspectFill" />
      ) : (
        <View className="picture-grid__image picture-grid__image--empty">
          <Text>{image.status === 'failed' ? '加载失败' : '…'}</Text>
        </View>
      )}
      {onRemove && (
        <Text className="picture-grid__remove" aria-label="删除图片" onClick={onRemove}>
          ×
        </Text>
      )}
    </View>
  )
}

export interface PictureGridProps {
  pictures: readonly DraftPicture[]
  onAdd?: () => void
  onRemove?: (id: string) => void
  /** Pictures of this grid going up now. */
  uploading?: number
}

/** Uploaded pictures as thumbnails, each removable, and 添加图片 until CONSULT_PICTURES_MAX. */
export function PictureGrid({ pictures, onAdd, onRemove, uploading = 0 }: PictureGridProps) {
  return (
    <View className="picture-grid">
      {pictures.map((picture) => (
        <Thumb
          key={picture.id}
          picture={picture}
          onRemove={onRemove ? () => onRemove(picture.id) : undefined}
        />
      ))}
      {uploading > 0 && (
        <View className="picture-grid__item picture-grid__image picture-grid__image--empty">
          <Text>上传中</Text>
        </View>
      )}
      {onAdd && pictures.length < CONSULT_PICTURES_MAX && (
        <View className="picture-grid__item picture-grid__add" role="button" onClick={onAdd}>
          <Text className="picture-grid__plus">+</Text>
          <Text className="picture-grid__add-text">添加图片</Text>
        </View>
      )}
    </View>
  )
}
