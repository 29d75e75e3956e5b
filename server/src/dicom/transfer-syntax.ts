/** Transfer syntax UIDs we recognise (PS3.6 Annex A), and how their pixel data is stored. */
export const TS = {
  implicitLittle: '1.2.840.10008.1.2',
  explicitLittle: '1.2.840.10008.1.2.1',
  deflatedExplicitLittle: '1.2.840.10008.1.2.1.99',
  explicitBig: '1.2.840.10008.1.2.2',
  jpegBaseline: '1.2.840.10008.1.2.4.50',
  jpegExtended12: '1.2.840.10008.1.2.4.51',
  jpegLossless: '1.2.840.10008.1.2.4.57',
  jpegLosslessSV1: '1.2.840.10008.1.2.4.70',
  jpegLsLossless: '1.2.840.10008.1.2.4.80',
  jpegLsNearLossless: '1.2.840.10008.1.2.4.81',
  jpeg2000Lossless: '1.2.840.10008.1.2.4.90',
  jpeg2000: '1.2.840.10008.1.2.4.91',
  rleLossless: '1.2.840.10008.1.2.5',
} as const

export type Codec = 'native' | 'rle' | 'jpeg8' | 'jpegLossless' | 'jpegLs' | 'jpeg2000'

/**
 * Which decoder handles each syntax. Anything absent (12-bit JPEG .51, MPEG, HTJ2K, ...) is stored and
 * listed but answered with UnsupportedTransferSyntax: none of the installed codecs covers it.
 */
const CODECS: Record<string, Codec> = {
  [TS.implicitLittle]: 'native',
  [TS.explicitLittle]: 'native',
  [TS.deflatedExplicitLittle]: 'native',
  [TS.explicitBig]: 'native',
  [TS.rleLossless]: 'rle',
  [TS.jpegBaseline]: 'jpeg8',
  [TS.jpegLossless]: 'jpegLossless',
  [TS.jpegLosslessSV1]: 'jpegLossless',
  [TS.jpegLsLossless]: 'jpegLs',
  [TS.jpegLsNearLossless]: 'jpegLs',
  [TS.jpeg2000Lossless]: 'jpeg2000',
  [TS.jpeg2000]: 'jpeg2000',
}

export function codecFor(transferSyntaxUid: string): Codec | undefined {
  return CODECS[transferSyntaxUid]
}

/** Lossy syntaxes: their frames are compared by mean error in tests, never pixel-exactly. */
export function isLossy(transferSyntaxUid: string): boolean {
  return (
    transferSyntaxUid === TS.jpegBaseline ||
    transferSyntaxUid === TS.jpegExtended12 ||
    transferSyntaxUid === TS.jpegLsNearLossless ||
    transferSyntaxUid === TS.jpeg2000
  )
}
