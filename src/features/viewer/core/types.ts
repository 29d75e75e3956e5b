export type Photometric = 'MONOCHROME1' | 'MONOCHROME2' | 'RGB' | 'PALETTE COLOR' | 'YBR_FULL'

/** In modality units (HU for CT), as DICOM's Window Center / Window Width. */
export interface WindowLevel {
  center: number
  width: number
}

/** PALETTE COLOR lookup (PS3.3 C.7.6.3.1.5), entries reduced to 8 bits. */
export interface Palette {
  firstMapped: number
  red: Uint8Array
  green: Uint8Array
  blue: Uint8Array
}

/** One instance, from DICOM JSON (WADO-RS metadata). */
export interface ImageInfo {
  sopInstanceUid: string
  seriesUid: string
  studyUid: string
  rows: number
  columns: number
  samplesPerPixel: 1 | 3
  photometric: Photometric
  bitsAllocated: number
  bitsStored: number
  highBit: number
  pixelRepresentation: 0 | 1
  planarConfiguration: 0 | 1
  numberOfFrames: number
  frameTimeMs: number | null
  rescaleSlope: number
  rescaleIntercept: number
  modality: string | null
  /** The file's own, in file order. */
  windows: (WindowLevel & { label: string | null })[]
  pixelSpacing: { row: number; column: number; source: 'pixel' | 'imager' } | null
  instanceNumber: number | null
  sliceLocation: number | null
  imagePosition: [number, number, number] | null
  patientName: string | null
  /** YYYY-MM-DD when the file's StudyDate is a valid DA, else as written. */
  studyDate: string | null
  seriesDescription: string | null
  seriesNumber: number | null
  /** Image Orientation (Patient): row then column direction cosines; orders a stack. */
  imageOrientation?: [number, number, number, number, number, number] | null
  /** Only for PALETTE COLOR (the lookup from the metadata). */
  palette?: Palette | null
}

export type PixelData = Uint8Array | Int8Array | Uint16Array | Int16Array

/** Image pixel coordinates (column, row). */
export type Point = { x: number; y: number }
