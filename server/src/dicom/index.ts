/** The DICOM module's public surface (README.md beside this file). No database, no routes. */
export { parse, DicomParseError, displayName } from './parse'
export type { DicomInstance, ImageInfo, DicomParseErrorCode, ParseOptions } from './parse'
export {
  decodeFrames,
  UNSUPPORTED_PREVIEW_MESSAGE,
  DECODE_FAILED_MESSAGE,
  NO_PIXELS_MESSAGE,
  NO_SUCH_FRAME_MESSAGE,
} from './frames'
export type {
  DecodeResult,
  DecodeOptions,
  DecodeFailed,
  Frame,
  MonoFrame,
  RgbFrame,
  UnsupportedTransferSyntax,
} from './frames'
export { dicomJson } from './json'
export type { DicomJson, DicomJsonAttribute, DicomJsonOptions } from './json'
export { renderJpeg, renderPng, renderPixels, renderOptionsFor, voiLinear } from './render'
export type { RenderOptions, Rendered } from './render'
export { TS, codecFor, isLossy } from './transfer-syntax'
