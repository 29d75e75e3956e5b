import {
  createRenderer,
  defaultWindow,
  framePixels,
  parseInstanceMetadata,
  presetsFor,
  presetWindow,
  RendererPool,
  UNSUPPORTED_IMAGE,
  valueAt,
  ViewerError,
  type ImageInfo,
  type WindowLevel,
} from '../index'
import { expectedGrey, randomInts, syntheticJson, type SyntheticOptions } from './support'

/*
 * Modality LUT Sequence, VOI LUT Sequence and VOI LUT Function (PS3.3 C.11.1, C.11.2), 16-bit
 * colour and YBR_FULL_422. Every expectation is computed here from the standard's text, not by
 * the code under test.
 */

type Json = Record<string, unknown>
const ROWS = 16
const COLUMNS = 32
const COUNT = ROWS * COLUMNS

/** A LUT item as DICOM JSON: data as US Value, or as OW InlineBinary (16-bit words). */
function lutItem(
  first: number,
  bits: number,
  data: number[],
  options: { explanation?: string; inline?: boolean; bulk?: boolean; descriptorVr?: string } = {},
): Json {
  const item: Json = {
    '00283002': { vr: options.descriptorVr ?? 'US', Value: [data.length % 65536, first, bits] },
  }
  if (options.bulk) item['00283006'] = { vr: 'OW', BulkDataURI: 'https://pacs.example/bulk/1' }
  else if (options.inline) {
    const words = Uint16Array.from(data)
    item['00283006'] = { vr: 'OW', InlineBinary: Buffer.from(words.buffer).toString('base64') }
  } else item['00283006'] = { vr: 'US', Value: data }
  if (options.explanation) item['00283003'] = { vr: 'LO', Value: [options.explanation] }
  return item
}

function bytesOf(values: number[], bitsAllocated: number, signed: boolean): ArrayBuffer {
  const array =
    bitsAllocated === 8
      ? signed
        ? Int8Array.from(values)
        : Uint8Array.from(values)
      : signed
        ? Int16Array.from(values)
        : Uint16Array.from(values)
  return array.buffer.slice(0) as ArrayBuffer
}

function render(info: ImageInfo, stored: number[], window: WindowLevel): number[] {
  const pixels = framePixels(
    info,
    bytesOf(stored, info.bitsAllocated, info.pixelRepresentation === 1),
  )
  const out = new Uint8ClampedArray(COUNT * 4)
  createRenderer(info).render(pixels, window, false, out)
  const grey: number[] = []
  for (let i = 0; i < COUNT; i++) {
    expect(out[i * 4 + 1]).toBe(out[i * 4])
    expect(out[i * 4 + 2]).toBe(out[i * 4])
    grey.push(out[i * 4]!)
  }
  return grey
}

function worst(actual: number[], expected: number[]): number {
  return Math.max(...actual.map((a, i) => Math.abs(a - expected[i]!)))
}

const base = (o: SyntheticOptions, extra: Json = {}): Json => ({
  ...syntheticJson({ rows: ROWS, columns: COLUMNS, ...o }),
  ...extra,
})

/** PS3.3 C.11.1: the entry for the input, the first one below the table, the last one above. */
function tableLookup(first: number, data: number[], input: number): number {
  if (input < first) return data[0]!
  if (input >= first + data.length) return data[data.length - 1]!
  return data[input - first]!
}

describe('Modality LUT Sequence (0028,3000)', () => {
  // A non-linear, non-monotonic table over stored 100..1123 (12-bit data, 12-bit output).
  const first = 100
  const table = Array.from({ length: 1024 }, (_, i) => Math.round(2000 + 1500 * Math.sin(i / 90)))
  const stored = randomInts(COUNT, 0, 4095, 31)
  stored[0] = 50 // below the table
  stored[1] = 4000 // above it

  it.each([
    ['US Value', false],
    ['OW InlineBinary', true],
  ])('replaces rescale, then the file window applies (%s)', (_name, inline) => {
    const info = parseInstanceMetadata(
      base(
        { bitsStored: 12, slope: 3, intercept: -9999, windows: [[2000, 1800]], modality: 'XA' },
        { '00283000': { vr: 'SQ', Value: [lutItem(first, 12, table, { inline })] } },
      ),
    )
    expect(info.modalityLut?.data.length).toBe(1024)
    const pixels = framePixels(info, bytesOf(stored, 16, false))
    const window = defaultWindow(info, pixels)
    expect(window).toEqual({ center: 2000, width: 1800 })
    const expected = stored.map((s) => expectedGrey(tableLookup(first, table, s), 2000, 1800))
    expect(worst(render(info, stored, window), expected)).toBeLessThanOrEqual(1)
    // The probe reads the LUT's value, not the ignored rescale.
    expect(valueAt(info, pixels, 5, 0)?.value).toBe(tableLookup(first, table, stored[5]!))
  })

  it('without a window, the automatic one spans the LUT outputs of the frame (not the stored range)', () => {
    const info = parseInstanceMetadata(
      base({ bitsStored: 12 }, { '00283000': { vr: 'SQ', Value: [lutItem(first, 12, table)] } }),
    )
    const pixels = framePixels(info, bytesOf(stored, 16, false))
    const outputs = stored.map((s) => tableLookup(first, table, s))
    const low = Math.min(...outputs)
    const high = Math.max(...outputs)
    const window = defaultWindow(info, pixels)
    expect(window.width).toBe(high - low + 1)
    expect(window.center).toBe(low + (high - low + 1) / 2)
  })

  it('a table only behind a BulkDataURI is refused (its values would all be wrong)', () => {
    const json = base(
      {},
      { '00283000': { vr: 'SQ', Value: [lutItem(0, 16, [1, 2], { bulk: true })] } },
    )
    expect(() => parseInstanceMetadata(json)).toThrow(new ViewerError(UNSUPPORTED_IMAGE))
  })

  it('signed stored values: a first mapped value written as US 63488 means −2048', () => {
    const data = Array.from({ length: 4096 }, (_, i) => i >> 2)
    const info = parseInstanceMetadata(
      base(
        { bitsStored: 12, pixelRepresentation: 1, windows: [[512, 1024]] },
        { '00283000': { vr: 'SQ', Value: [lutItem(63488, 10, data)] } },
      ),
    )
    expect(info.modalityLut?.firstMapped).toBe(-2048)
    const values = randomInts(COUNT, -2048, 2047, 33)
    const expected = values.map((s) => expectedGrey(tableLookup(-2048, data, s), 512, 1024))
    expect(worst(render(info, values, { center: 512, width: 1024 }), expected)).toBeLessThanOrEqual(
      1,
    )
  })
})

describe('VOI LUT Sequence (0028,3010)', () => {
  // Two tables over HU −1024..3071 (CT: unsigned stored, intercept −1024), 8 and 16 bits out.
  const gamma = Array.from({ length: 4096 }, (_, i) => Math.round(255 * (i / 4095) ** 0.5))
  const steps = Array.from({ length: 4096 }, (_, i) => (i < 1000 ? 0 : i < 1100 ? 40000 : 65535))
  const json = base(
    { bitsStored: 12, intercept: -1024, modality: 'DX' },
    {
      '00283010': {
        vr: 'SQ',
        Value: [
          lutItem(64512, 8, gamma, { explanation: 'GAMMA' }),
          lutItem(64512, 16, steps, { explanation: 'STEPS', inline: true }),
          lutItem(0, 16, [0, 1], { bulk: true }),
        ],
      },
    },
  )
  const stored = randomInts(COUNT, 0, 4095, 41)

  /** PS3.3 C.11.2.1.1: the entry's value over 2^bits − 1 of the output range. */
  const expectedLut = (data: number[], bits: number) =>
    stored.map((s) => (tableLookup(-1024, data, s - 1024) / (2 ** bits - 1)) * 255)

  it('lists the readable tables by their explanation, in file order, and shows the first by default', () => {
    const info = parseInstanceMetadata(json)
    expect(info.voiLuts?.map((l) => [l.label, l.firstMapped])).toEqual([
      ['GAMMA', -1024],
      ['STEPS', -1024],
    ])
    expect(presetsFor(info).map((p) => p.label)).toEqual(['GAMMA', 'STEPS', '自动'])
    const pixels = framePixels(info, bytesOf(stored, 16, false))
    const window = defaultWindow(info, pixels)
    expect(window.voiLut).toBe(0)
    expect(worst(render(info, stored, window), expectedLut(gamma, 8))).toBeLessThanOrEqual(1)
  })

  it('a preset shows its table; a window made from its centre and width (a drag) is linear', () => {
    const info = parseInstanceMetadata(json)
    const pixels = framePixels(info, bytesOf(stored, 16, false))
    const steps16 = presetWindow(presetsFor(info)[1]!, info, pixels)
    expect(steps16.voiLut).toBe(1)
    expect(worst(render(info, stored, steps16), expectedLut(steps, 16))).toBeLessThanOrEqual(1)
    const dragged = { center: steps16.center, width: steps16.width }
    const linear = stored.map((s) => expectedGrey(s - 1024, dragged.center, dragged.width))
    expect(worst(render(info, stored, dragged), linear)).toBeLessThanOrEqual(1)
  })

  it('CT lists its five windows and then the file’s tables', () => {
    const info = parseInstanceMetadata({ ...json, '00080060': { vr: 'CS', Value: ['CT'] } })
    expect(presetsFor(info).map((p) => p.label)).toEqual([
      '肺窗',
      '纵隔窗',
      '骨窗',
      '脑窗',
      '腹部',
      'GAMMA',
      'STEPS',
    ])
  })

  it('instances with different tables never share a renderer', () => {
    const other = parseInstanceMetadata({
      ...json,
      '00080018': { vr: 'UI', Value: ['9.9'] },
      '00283010': {
        vr: 'SQ',
        Value: [
          lutItem(
            64512,
            8,
            gamma.map((g) => 255 - g),
          ),
        ],
      },
    })
    const same = parseInstanceMetadata({ ...json, '00080018': { vr: 'UI', Value: ['9.8'] } })
    const pool = new RendererPool()
    const info = parseInstanceMetadata(json)
    expect(pool.get(same)).toBe(pool.get(info))
    expect(pool.get(other)).not.toBe(pool.get(info))
  })
})

describe('VOI LUT Function (0028,1056)', () => {
  /** PS3.3 C.11.2.1.3.1 written out: y = (ymax − ymin) / (1 + exp(−4 (x − c) / w)) + ymin. */
  const sigmoid = (x: number, c: number, w: number) => 255 / (1 + Math.exp((-4 * (x - c)) / w))
  /** PS3.3 C.11.2.1.3.2 written out. */
  const linearExact = (x: number, c: number, w: number) =>
    x <= c - w / 2 ? 0 : x > c + w / 2 ? 255 : ((x - c) / w + 0.5) * 255

  const fn = (name: string) => ({ '00281056': { vr: 'CS', Value: [name] } })

  it('SIGMOID at the file window, over the whole stored range (not flat just outside the window)', () => {
    const info = parseInstanceMetadata(
      base(
        { pixelRepresentation: 1, slope: 2, intercept: 100, windows: [[300, 400]] },
        fn('SIGMOID'),
      ),
    )
    expect(info.voiFunction).toBe('SIGMOID')
    const stored = randomInts(COUNT, -1000, 1000, 51)
    const expected = stored.map((s) => sigmoid(s * 2 + 100, 300, 400))
    const pixels = framePixels(info, bytesOf(stored, 16, true))
    const window = defaultWindow(info, pixels)
    expect(worst(render(info, stored, window), expected)).toBeLessThanOrEqual(1)
    // A value one window width from the centre is neither black nor white under the sigmoid.
    expect(Math.round(sigmoid(300 - 400, 300, 400))).toBe(5)
    // A window dragged from it keeps the image's function.
    const moved = stored.map((s) => sigmoid(s * 2 + 100, 0, 900))
    expect(worst(render(info, stored, { center: 0, width: 900 }), moved)).toBeLessThanOrEqual(1)
  })

  it('LINEAR_EXACT, a width below 1 included', () => {
    const info = parseInstanceMetadata(
      base(
        {
          bitsAllocated: 8,
          windows: [
            [100.25, 0.5],
            [128, 50],
          ],
        },
        fn('LINEAR_EXACT'),
      ),
    )
    expect(info.windows.map((w) => w.width)).toEqual([0.5, 50])
    const stored = randomInts(COUNT, 0, 255, 53)
    for (const [c, w] of [
      [100.25, 0.5],
      [128, 50],
    ] as const) {
      const expected = stored.map((s) => linearExact(s, c, w))
      expect(worst(render(info, stored, { center: c, width: w }), expected)).toBeLessThanOrEqual(1)
    }
  })

  it('the automatic window stays linear (as the server’s preview) on a SIGMOID image', () => {
    const info = parseInstanceMetadata(base({ bitsAllocated: 8 }, fn('SIGMOID')))
    const stored = randomInts(COUNT, 10, 200, 55)
    const pixels = framePixels(info, bytesOf(stored, 8, false))
    const window = defaultWindow(info, pixels)
    expect(window.fn).toBe('LINEAR')
    const expected = stored.map((s) => expectedGrey(s, window.center, window.width))
    expect(worst(render(info, stored, window), expected)).toBeLessThanOrEqual(1)
  })

  it('an unknown function is read as LINEAR', () => {
    expect(parseInstanceMetadata(base({}, fn('GAMMA'))).voiFunction).toBe('LINEAR')
  })
})

describe('16-bit colour and YBR_FULL_422', () => {
  const rgbJson = (o: SyntheticOptions, photometric = 'RGB') =>
    base({ photometric, samplesPerPixel: 3, bitsAllocated: 16, ...o })

  function shown(info: ImageInfo, bytes: ArrayBuffer): number[] {
    const pixels = framePixels(info, bytes)
    const out = new Uint8ClampedArray(COUNT * 4)
    createRenderer(info).render(pixels, defaultWindow(info, pixels), false, out)
    return Array.from({ length: COUNT * 3 }, (_, i) => out[Math.floor(i / 3) * 4 + (i % 3)]!)
  }

  it.each([
    ['16 bits stored, interleaved', 16, 0],
    ['12 bits stored with bits above them set, planar', 12, 1],
  ] as const)('RGB %s: each sample’s top 8 stored bits', (_name, bitsStored, planar) => {
    const info = parseInstanceMetadata(rgbJson({ bitsStored, planar }))
    const samples = randomInts(COUNT * 3, 0, 0xffff, 61)
    const bytes = Uint16Array.from(samples).buffer
    // Sample of channel c at pixel i, wherever the layout keeps it.
    const at = (i: number, c: number) => samples[planar ? c * COUNT + i : i * 3 + c]!
    const expected = Array.from({ length: COUNT * 3 }, (_, k) => {
      const v = at(Math.floor(k / 3), k % 3) % 2 ** bitsStored
      return Math.floor(v / 2 ** (bitsStored - 8))
    })
    expect(shown(info, bytes)).toEqual(expected)
  })

  /** PS3.3 C.7.6.3.1.2 written out. */
  const rgbOf = (y: number, cb: number, cr: number) =>
    [
      y + 1.402 * (cr - 128),
      y - 0.344136 * (cb - 128) - 0.714136 * (cr - 128),
      y + 1.772 * (cb - 128),
    ].map((v) => Math.min(255, Math.max(0, v)))

  it('YBR_FULL_422 as stored (Y1 Y2 Cb Cr per pair of pixels)', () => {
    const info = parseInstanceMetadata(
      base({ photometric: 'YBR_FULL_422', samplesPerPixel: 3, bitsAllocated: 8 }),
    )
    const stored = randomInts(COUNT * 2, 0, 255, 63)
    const expected: number[] = []
    for (let pair = 0; pair < COUNT / 2; pair++) {
      const [y1, y2, cb, cr] = stored.slice(pair * 4, pair * 4 + 4) as [
        number,
        number,
        number,
        number,
      ]
      expected.push(...rgbOf(y1, cb, cr), ...rgbOf(y2, cb, cr))
    }
    expect(worst(shown(info, Uint8Array.from(stored).buffer), expected)).toBeLessThanOrEqual(1)
  })

  it('YBR_FULL_422 a server already expanded to three samples a pixel (metadata unchanged)', () => {
    const info = parseInstanceMetadata(
      base({ photometric: 'YBR_FULL_422', samplesPerPixel: 3, bitsAllocated: 8 }),
    )
    const stored = randomInts(COUNT * 3, 0, 255, 65)
    const expected: number[] = []
    for (let i = 0; i < COUNT; i++)
      expected.push(...rgbOf(stored[i * 3]!, stored[i * 3 + 1]!, stored[i * 3 + 2]!))
    expect(worst(shown(info, Uint8Array.from(stored).buffer), expected)).toBeLessThanOrEqual(1)
  })
})
