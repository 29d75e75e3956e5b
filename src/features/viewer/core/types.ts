export type Photometric =
  'MONOCHROME1' | 'MONOCHROME2' | 'RGB' | 'PALETTE COLOR' | 'YBR_FULL' | 'YBR_FULL_422'

/** VOI LUT Function (0028,1056), PS3.3 C.11.2.1.3. */
export type VoiFunction = 'LINEAR' | 'LINEAR_EXACT' | 'SIGMOID'

/**
 * In modality units (HU for CT), as DICOM's Window Center / Window Width. `fn` overrides the
 * image's VOI LUT Function; `voiLut` names one of the file's VOI LUTs (ImageInfo.voiLuts), which
 * then replaces the window (center/width are its input span, where a drag starts from).
 */
export interface WindowLevel {
  center: number
  width: number
  fn?: VoiFunction
  voiLut?: number
}

/**
 * A Modality or VOI LUT (PS3.3 C.11.1 / C.11.2.1.1): entry i maps input firstMapped + i; inputs
 * outside the table take its first or last entry. Output 0..max.
 */
export interface Lut {
  firstMapped: number
  data: Uint16Array
  /** 2^bits − 1 of the LUT Descriptor (raised when the data holds larger values). */
  max: number
  /** LUT Explanation (0028,3003), trimmed. */
  label: string | null
  /** Identifies the table's content (renderers are shared only between equal tables). */
  key: string
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
  /** Modality LUT Sequence (0028,3000): replaces rescale slope/intercept when present. */
  modalityLut?: Lut | null
  /** VOI LUT Sequence (0028,3010), in file order. */
  voiLuts?: Lut[]
  /** VOI LUT Function (0028,1056) of the file's windows; LINEAR when absent or unknown. */
  voiFunction?: VoiFunction
}

export type PixelData = Uint8Array | Int8Array | Uint16Array | Int16Array

/** Image pixel coordinates (column, row). */
export type Point = { x: number; y: number }
