/*
 * The viewer's render core: DICOM JSON → ImageInfo, WADO-RS frames → pixels → RGBA through one
 * lookup table per window, measurements, and the bounded frame cache. Plain TypeScript (no Taro,
 * React or DOM globals) so the same code runs in the mini-program and in H5. The agreed
 * interface: the other parts of the viewer import from here.
 */
export type {
  ImageInfo,
  Lut,
  Palette,
  Photometric,
  PixelData,
  Point,
  VoiFunction,
  WindowLevel,
} from './types'
export { ViewerError, BROKEN_DATA, NO_IMAGE, UNSUPPORTED_IMAGE } from './errors'
export { parseInstanceMetadata, sortInstances, decodeBase64 } from './metadata'
export { parseMultipart, boundaryOf } from './multipart'
export { framePixels, frameByteLength } from './pixels'
export { createRenderer, rendererKey, RendererPool, voiLinear, type Renderer } from './render'
export { autoWindow, defaultWindow, presetsFor, presetWindow, type Preset } from './window'
export { lutWindow, modalityValue, voiValue } from './lut'
export {
  measureAngle,
  measureDistance,
  measureEllipse,
  valueAt,
  type EllipseStats,
} from './measure'
export { FRAME_CACHE_BYTES, FrameCache, prefetchOrder } from './frame-cache'
export { imageFor, paintRgba, type ImageDataContext } from './paint'
