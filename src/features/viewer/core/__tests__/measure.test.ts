import {
  autoWindow,
  defaultWindow,
  framePixels,
  measureAngle,
  measureDistance,
  parseInstanceMetadata,
  presetsFor,
  presetWindow,
  valueAt,
} from '../index'
import { syntheticJson, type SyntheticOptions } from './support'

const info = (o: SyntheticOptions = {}) => parseInstanceMetadata(syntheticJson(o))

describe('measureDistance', () => {
  it('scales the horizontal step by column spacing and the vertical by row spacing', () => {
    const i = info({ pixelSpacing: [0.5, 0.8] })
    expect(measureDistance(i, { x: 0, y: 0 }, { x: 10, y: 0 })).toEqual({
      mm: 8,
      approximate: false,
    })
    expect(measureDistance(i, { x: 0, y: 0 }, { x: 0, y: 10 })).toEqual({
      mm: 5,
      approximate: false,
    })
    const diagonal = measureDistance(i, { x: 1, y: 2 }, { x: 4, y: 6 })
    expect(diagonal.mm).toBeCloseTo(Math.hypot(3 * 0.8, 4 * 0.5), 10)
  })

  it('a 10 mm line on a known-spacing image reads 10 mm', () => {
    const i = info({ pixelSpacing: [0.5, 0.5] })
    expect(measureDistance(i, { x: 100.25, y: 40 }, { x: 112.25, y: 56 }).mm).toBeCloseTo(10, 10)
  })

  it('says 约 (approximate) when only ImagerPixelSpacing is known', () => {
    const i = info({ imagerSpacing: [0.2, 0.2] })
    expect(measureDistance(i, { x: 0, y: 0 }, { x: 50, y: 0 })).toEqual({
      mm: 10,
      approximate: true,
    })
  })

  it('gives the reason when the image has no spacing', () => {
    const result = measureDistance(info(), { x: 0, y: 0 }, { x: 50, y: 0 })
    expect(result.mm).toBeNull()
    expect(result).toEqual({ mm: null, reason: expect.stringMatching(/像素间距/) })
  })
})

describe('measureAngle', () => {
  const v = { x: 10, y: 10 }
  it.each([
    [{ x: 20, y: 10 }, { x: 10, y: 0 }, 90],
    [{ x: 20, y: 10 }, { x: 0, y: 10 }, 180],
    [{ x: 20, y: 10 }, { x: 30, y: 10 }, 0],
    [{ x: 20, y: 10 }, { x: 20, y: 20 }, 45],
    [{ x: 20, y: 10 }, { x: 0, y: 20 }, 180 - (Math.atan2(10, 10) * 180) / Math.PI],
  ])('%o, vertex, %o → %f°', (a, b, degrees) => {
    expect(measureAngle(a, v, b)).toBeCloseTo(degrees, 9)
    expect(measureAngle(b, v, a)).toBeCloseTo(degrees, 9)
  })

  it('is 0 when a ray has no length', () => {
    expect(measureAngle(v, v, { x: 0, y: 0 })).toBe(0)
  })
})

describe('valueAt', () => {
  it('gives HU for CT (stored × slope + intercept), row-major at (column, row)', () => {
    const i = info({
      modality: 'CT',
      pixelRepresentation: 1,
      intercept: -1024,
      rows: 2,
      columns: 3,
    })
    const pixels = framePixels(i, new Int16Array([0, 1, 2, 3, 1064, 5]).buffer)
    expect(valueAt(i, pixels, 1, 1)).toEqual({ value: 40, unit: 'HU' })
    expect(valueAt(i, pixels, 1.9, 1.2)).toEqual({ value: 40, unit: 'HU' })
    expect(valueAt(i, pixels, 2, 0)).toEqual({ value: -1022, unit: 'HU' })
  })

  it('has no unit for MR and applies the slope', () => {
    const i = info({ modality: 'MR', slope: 2.5, intercept: 1, rows: 1, columns: 2 })
    expect(valueAt(i, framePixels(i, new Uint16Array([4, 8]).buffer), 1, 0)).toEqual({
      value: 21,
      unit: '',
    })
  })

  it('is null outside the image and for RGB', () => {
    const i = info({ rows: 2, columns: 3 })
    const pixels = framePixels(i, new ArrayBuffer(12))
    for (const [x, y] of [
      [-0.1, 0],
      [0, -1],
      [3, 0],
      [0, 2],
      [NaN, 0],
    ]) {
      expect(valueAt(i, pixels, x!, y!)).toBeNull()
    }
    const rgb = info({
      photometric: 'RGB',
      samplesPerPixel: 3,
      bitsAllocated: 8,
      rows: 1,
      columns: 1,
    })
    expect(valueAt(rgb, framePixels(rgb, new ArrayBuffer(3)), 0, 0)).toBeNull()
  })
})

describe('presets', () => {
  it('CT: the issue’s five windows', () => {
    expect(presetsFor(info({ modality: 'CT' }))).toEqual([
      { label: '肺窗', window: { center: -600, width: 1500 } },
      { label: '纵隔窗', window: { center: 50, width: 350 } },
      { label: '骨窗', window: { center: 500, width: 2000 } },
      { label: '脑窗', window: { center: 40, width: 80 } },
      { label: '腹部', window: { center: 40, width: 400 } },
    ])
  })

  it('other greyscale: the file’s windows then 自动', () => {
    const mr = info({
      modality: 'MR',
      windows: [
        [300, 600],
        [500, 1000],
      ],
      explanations: ['', 'T2'],
    })
    expect(presetsFor(mr)).toEqual([
      { label: '默认窗1', window: 'file', fileIndex: 0 },
      { label: 'T2', window: 'file', fileIndex: 1 },
      { label: '自动', window: 'auto' },
    ])
    expect(presetsFor(info({ modality: 'MR', windows: [[1, 2]] }))[0]!.label).toBe('默认窗')
    expect(presetsFor(info({ modality: 'US' }))).toEqual([{ label: '自动', window: 'auto' }])
    expect(presetsFor(info({ photometric: 'RGB', samplesPerPixel: 3, bitsAllocated: 8 }))).toEqual(
      [],
    )
  })

  it('a preset resolves to its window on the frame', () => {
    const mr = info({
      modality: 'MR',
      windows: [
        [300, 600],
        [500, 1000],
      ],
      rows: 1,
      columns: 3,
    })
    const pixels = framePixels(mr, new Uint16Array([10, 20, 110]).buffer)
    const [first, second, auto] = presetsFor(mr)
    expect(presetWindow(second!, mr, pixels)).toEqual({ center: 500, width: 1000 })
    expect(presetWindow(first!, mr, pixels)).toEqual({ center: 300, width: 600 })
    expect(presetWindow(auto!, mr, pixels)).toEqual(autoWindow(mr, pixels))
    expect(presetWindow(presetsFor(info({ modality: 'CT' }))[0]!, mr, pixels)).toEqual({
      center: -600,
      width: 1500,
    })
  })

  it('auto spans the frame’s rescaled range; default is the file’s first window, else auto', () => {
    const ct = info({
      modality: 'CT',
      pixelRepresentation: 1,
      intercept: -1024,
      rows: 1,
      columns: 3,
    })
    const pixels = framePixels(ct, new Int16Array([0, 2000, 24]).buffer)
    // min −1024 → 0 and max 976 → 255 under the linear function: width = range + 1.
    expect(autoWindow(ct, pixels)).toEqual({ center: -23.5, width: 2001 })
    expect(defaultWindow(ct, pixels)).toEqual(autoWindow(ct, pixels))
    const withWindow = info({
      windows: [
        [40, 400],
        [1, 2],
      ],
      rows: 1,
      columns: 3,
    })
    expect(defaultWindow(withWindow, pixels)).toEqual({ center: 40, width: 400 })
    const flat = info({ rows: 1, columns: 2 })
    expect(autoWindow(flat, framePixels(flat, new Uint16Array([7, 7]).buffer))).toEqual({
      center: 7.5,
      width: 1,
    })
  })
})
