import { useCallback, useState } from 'react'
import {
  CONSULT_MESSAGES,
  CONSULT_PICTURES_MAX,
  uploadConsultPicture,
} from '@/services/consultations'
import { pickPhotos } from '@/platform/file-picker'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import type { DraftPicture } from '../draft-store'

export interface PictureUpload {
  /** Pictures picked and still going up. */
  uploading: number
  /** Picks up to what is left of CONSULT_PICTURES_MAX and uploads each as it comes. */
  add: (current: number, onUploaded: (picture: DraftPicture) => void) => Promise<void>
}

/** Photos go up as they are picked (one request a photo); the draft keeps only uploaded ones. */
export function usePictureUpload(): PictureUpload {
  const [uploading, setUploading] = useState(0)
  const add = useCallback(async (current: number, onUploaded: (picture: DraftPicture) => void) => {
    const room = CONSULT_PICTURES_MAX - current
    if (room <= 0) return showToast(CONSULT_MESSAGES.picturesTooMany)
    let paths: string[]
    try {
      paths = (await pickPhotos(room)).slice(0, room)
    } catch (error) {
      return showToast(describeError(error))
    }
    setUploading((count) => count + paths.length)
    for (const path of paths) {
      try {
        const picture = await uploadConsultPicture(path)
        onUploaded({ id: picture.id, url: picture.url })
      } catch (error) {
        showToast(describeError(error, '图片上传失败，请重试'))
      } finally {
        setUploading((count) => count - 1)
      }
    }
  }, [])
  return { uploading, add }
}
