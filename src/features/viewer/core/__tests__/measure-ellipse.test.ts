import { measureEllipse, parseInstanceMetadata } from '../index'
import { syntheticJson, type SyntheticOptions } from './support'

/** A 64×48 CT (HU = stored − 1024) with 0.5 × 0.8 mm pixels unless told otherwise. */
const ct = (o: SyntheticOptions = {}) =>
  parseInstanceMetadata(
    syntheticJson({
      modality: 'CT',
      intercept: -1024,
      slope: 1,
      pixelSpacing: [0.8, 0.5],
      ...o,
    }),
  )

const COLUMNS = 64
const ROWS = 48

/** A frame whose pixel (x, y) holds the stored value `hu(x, y) + 1024`. */
function frame(hu: (x: number, y: number) => number): Uint16Array {
  const out = new Uint16Array(COLUMNS * ROWS)
  for (let y = 0; y < ROWS; y += 1)
    for (let x = 0; x < COLUMNS; x += 1) out[y * COLUMNS + x] = hu(x, y) + 1024
  return out
}

/** The pixels whose centres are inside, found the slow way: every pixel of the image tested. */
function inside(a: { x: number; y: number }, b: { x: number; y: number }): [number, number][] {
  const cx = (a.x + b.x) / 2
  const cy = (a.y + b.y) / 2
  const rx = Math.abs(b.x - a.x) / 2
  const ry = Math.abs(b.y - a.y) / 2
  const out: [number, number][] = []
  for (let y = 0; y < ROWS; y += 1)
    for (let x = 0; x < COLUMNS; x += 1)
      if (((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 <= 1) out.push([x, y])
  return out
}

describe('measureEllipse', () => {
  it('a uniform region reads its HU with no spread', () => {
    const stats = measureEllipse(
      ct(),
      frame(() => 40),
      { x: 10, y: 8 },
      { x: 30, y: 20 },
    )
    expect(stats).toMatchObject({ mean: 40, sd: 0, min: 40, max: 40, unit: 'HU' })
  })

  it('a ±100 HU checkerboard in a centred ellipse: mean 0, SD 100 (population)', () => {
    // Centre on a pixel corner: the pixels inside pair off by reflection, odd with even.
    const pixels = frame((x, y) => ((x + y) % 2 === 0 ? 100 : -100))
    const stats = measureEllipse(ct(), pixels, { x: 10, y: 8 }, { x: 50, y: 40 })
    expect(stats.mean).toBeCloseTo(0, 12)
    expect(stats.sd).toBeCloseTo(100, 12)
    expect(stats).toMatchObject({ min: -100, max: 100 })
    expect(stats.pixels).toBe(inside({ x: 10, y: 8 }, { x: 50, y: 40 }).length)
  })

  it('takes exactly the pixels whose centres are inside, whichever corner comes first', () => {
    const hu = (x: number, y: number) => 3 * x - 2 * y + ((x * 7 + y * 13) % 11)
    const pixels = frame(hu)
    for (const [a, b] of [
      [
        { x: 12.3, y: 7.9 },
        { x: 41.6, y: 30.2 },
      ],
      [
        { x: 41.6, y: 30.2 },
        { x: 12.3, y: 7.9 },
      ],
      [
        { x: 5.5, y: 40.5 },
        { x: 9.5, y: 3.25 },
      ],
    ]) {
      const expected = inside(a!, b!).map(([x, y]) => hu(x, y))
      const mean = expected.reduce((s, v) => s + v, 0) / expected.length
      const sd = Math.sqrt(expected.reduce((s, v) => s + (v - mean) ** 2, 0) / expected.length)
      const stats = measureEllipse(ct(), pixels, a!, b!)
      expect(stats.pixels).toBe(expected.length)
      expect(stats.mean).toBeCloseTo(mean, 9)
      expect(stats.sd).toBeCloseTo(sd, 9)
      expect(stats.min).toBe(Math.min(...expected))
      expect(stats.max).toBe(Math.max(...expected))
    }
  })

  it('applies rescale slope and intercept, as the HU probe does', () => {
    const info = ct({ slope: 2, intercept: -1000 })
    const stored = new Uint16Array(COLUMNS * ROWS).fill(520)
    const stats = measureEllipse(info, stored, { x: 0, y: 0 }, { x: 20, y: 20 })
    expect(stats.mean).toBe(2 * 520 - 1000)
  })

  it('area is π·a·b in mm² from PixelSpacing (row, column); 约 from ImagerPixelSpacing only', () => {
    const a = { x: 10, y: 10 }
    const b = { x: 30, y: 20 }
    // 20 × 10 pixels of 0.5 mm columns and 0.8 mm rows: semi-axes 5 mm and 4 mm.
    expect(measureEllipse(ct(), null, a, b)).toMatchObject({ approximate: false })
    expect(measureEllipse(ct(), null, a, b).areaMm2).toBeCloseTo(Math.PI * 5 * 4, 10)
    const imager = measureEllipse(
      ct({ pixelSpacing: undefined, imagerSpacing: [0.2, 0.2] }),
      null,
      a,
      b,
    )
    expect(imager.areaMm2).toBeCloseTo(Math.PI * 2 * 1, 10)
    expect(imager.approximate).toBe(true)
    expect(measureEllipse(ct({ pixelSpacing: undefined }), null, a, b).areaMm2).toBeNull()
  })

  it('without pixels yet: the count and the area, no values', () => {
    const stats = measureEllipse(ct(), null, { x: 10, y: 8 }, { x: 30, y: 20 })
    expect(stats.pixels).toBe(inside({ x: 10, y: 8 }, { x: 30, y: 20 }).length)
    expect(stats).toMatchObject({ mean: null, sd: null, min: null, max: null })
  })

  it('an ellipse with no width holds nothing; one past the edge is cut at the image', () => {
    expect(
      measureEllipse(
        ct(),
        frame(() => 0),
        { x: 10, y: 8 },
        { x: 10, y: 30 },
      ),
    ).toMatchObject({ pixels: 0, mean: null })
    const edge = measureEllipse(
      ct(),
      frame(() => 7),
      { x: -20, y: -10 },
      { x: 20, y: 10 },
    )
    expect(edge.pixels).toBe(inside({ x: -20, y: -10 }, { x: 20, y: 10 }).length)
    expect(edge.mean).toBe(7)
  })

  it('other modalities read their values without a unit; RGB has none to read', () => {
    const mr = parseInstanceMetadata(syntheticJson({ modality: 'MR' }))
    const stored = new Uint16Array(COLUMNS * ROWS).fill(300)
    expect(measureEllipse(mr, stored, { x: 0, y: 0 }, { x: 10, y: 10 })).toMatchObject({
      mean: 300,
      unit: '',
    })
    const rgb = parseInstanceMetadata(
      syntheticJson({ samplesPerPixel: 3, photometric: 'RGB', bitsAllocated: 8 }),
    )
    const colour = measureEllipse(
      rgb,
      new Uint8Array(COLUMNS * ROWS * 3),
      { x: 0, y: 0 },
      {
        x: 10,
        y: 10,
      },
    )
    expect(colour.pixels).toBeGreaterThan(0)
    expect(colour.mean).toBeNull()
  })
})
