import { Image, Text, View } from '@tarojs/components'
import Taro from '@tarojs/taro'
import { useEffect, useState } from 'react'
import { downloadReportPhoto, type ExamFile } from '@/services/dicom-upload'
import './report-photos.scss'

export interface ReportPhotosProps {
  photos: readonly ExamFile[]
  /** Shown while photos are being sent. */
  adding?: boolean
  /** Absent: read-only (seen through a grant: no adding, no removing). */
  onAdd?: () => void
  onRemove?: (photo: ExamFile) => void
  max?: number
}

/** A photo behind the bearer token: fetched by the http wrapper, freed when it leaves the page. */
function Photo({
  photo,
  onPreview,
  onRemove,
}: {
  photo: ExamFile
  onPreview: (src: string) => void
  onRemove?: () => void
}) {
  const [src, setSrc] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let alive = true
    let release: (() => void) | null = null
    downloadReportPhoto(photo.id).then(
      (image) => {
        if (!alive) return image.release()
        release = image.release
        setSrc(image.src)
      },
      () => alive && setFailed(true),
    )
    return () => {
      alive = false
      release?.()
    }
  }, [photo.id])
  return (
    <View className="report-photos__item">
      {src ? (
        <Image
          className="report-photos__image"
          src={src}
          mode="aspectFill"
          onClick={() => onPreview(src)}
        />
      ) : (
        <Text className="report-photos__placeholder">{failed ? '加载失败' : '加载中'}</Text>
      )}
      {onRemove && (
        <Text className="report-photos__remove" aria-label="删除照片" onClick={onRemove}>
          ×
        </Text>
      )}
    </View>
  )
}

/** 报告照片: photos of the paper report the patient attached (JPG/PNG, stored without EXIF). */
export function ReportPhotos({
  photos,
  adding = false,
  onAdd,
  onRemove,
  max = 0,
}: ReportPhotosProps) {
  const preview = (current: string) => void Taro.previewImage({ current, urls: [current] })
  return (
    <View className="report-photos">
      {photos.map((photo) => (
        <Photo
          key={photo.id}
          photo={photo}
          onPreview={preview}
          onRemove={onRemove ? () => onRemove(photo) : undefined}
        />
      ))}
      {onAdd && photos.length < max && (
        <View className="report-photos__add" onClick={adding ? undefined : onAdd}>
          <Text>{adding ? '上传中…' : '+ 添加照片'}</Text>
        </View>
      )}
    </View>
  )
}
