export {
  cleanPhoto,
  type CleanPhoto,
  decodePng,
  jpegHeader,
  orient,
  type PhotoProblem,
  PhotoRefusedError,
  PHOTO_TOO_LARGE,
  PHOTO_TOO_MANY_PIXELS,
  PHOTO_TOO_SMALL,
  PHOTO_TYPE_REFUSED,
  PHOTO_UNREADABLE,
} from './clean'
export { type ImageType, sniffImageType } from './sniff'
