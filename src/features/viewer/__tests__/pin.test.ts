import Taro from '@tarojs/taro'
import { ImagePinSchema, type ImagePin } from '@contract/main/opinions'
import { sliceKey } from '../hooks/frame-loader'
import { ellipseLabel, measurementShapes } from '../measurements'
import {
  backToOpinion,
  buildPin,
  decodeMeasureParam,
  encodeMeasureParam,
  handOverPin,
  measurementOf,
  onPinHandedOver,
  OPINION_PIN_EVENT,
  pinViewerParams,
  type MeasureParam,
  type PinSource,
} from '../pin'
import type { Measurement } from '../view-state'
import { ctInfo, ctSlices, viewOf } from './view-support'

const slices = ctSlices(40)
const slice = slices[33]!

/** The 200×100 CT of view-support (HU = stored − 1024, 0.5 mm pixels): HU 50 left, −50 right. */
function halves(): Uint16Array {
  const frame = new Uint16Array(200 * 100)
  for (let y = 0; y < 100; y += 1)
    for (let x = 0; x < 200; x += 1) frame[y * 200 + x] = 1024 + (x < 100 ? 50 : -50)
  return frame
}

const on = (kind: Measurement['kind'], ...points: [number, number][]): Measurement => ({
  sliceKey: sliceKey(slice),
  kind,
  points: points.map(([x, y]) => ({ x, y })),
})

function source(measurements: Measurement[], pixels: Uint16Array | null = halves()): PinSource {
  return {
    fieldId: 'lung-nodule',
    examId: 'x1',
    studyUid: '1.2.3',
    seriesUid: '1.2.3.4',
    slice,
    index: 33,
    pixels,
    measurements,
  }
}

describe('the measure param', () => {
  it('round-trips every kind, to 0.1 pixel', () => {
    const cases: MeasureParam[] = [
      {
        kind: 'ellipse',
        points: [
          [120.5, 88],
          [140, 102.25],
        ],
      },
      {
        kind: 'angle',
        points: [
          [1, 2],
          [3.04, 4],
          [-5, 6],
        ],
      },
      {
        kind: 'distance',
        points: [
          [0, 0],
          [511.96, 511.94],
        ],
      },
    ]
    for (const m of cases) {
      const text = encodeMeasureParam(m)
      const back = decodeMeasureParam(text)
      expect(back?.kind).toBe(m.kind)
      back!.points.forEach(([x, y], i) => {
        expect(x).toBeCloseTo(m.points[i]![0], 1)
        expect(y).toBeCloseTo(m.points[i]![1], 1)
      })
      // Once rounded it is stable.
      expect(encodeMeasureParam(back!)).toBe(text)
    }
    expect(
      encodeMeasureParam({
        kind: 'ellipse',
        points: [
          [120.5, 88],
          [140, 102.25],
        ],
      }),
    ).toBe('ellipse:120.5,88;140,102.3')
  })

  it('survives the query string and its decoding', () => {
    const text = encodeMeasureParam({
      kind: 'angle',
      points: [
        [1.5, 2],
        [3, 4],
        [5, 6],
      ],
    })
    expect(decodeMeasureParam(decodeURIComponent(encodeURIComponent(text)))).toEqual({
      kind: 'angle',
      points: [
        [1.5, 2],
        [3, 4],
        [5, 6],
      ],
    })
  })

  it.each([
    undefined,
    '',
    'ellipse',
    'ellipse:',
    'circle:1,2;3,4',
    'ellipse:1,2',
    'ellipse:1,2;3,4;5,6',
    'angle:1,2;3,4',
    'distance:1,2;3',
    'distance:1,2;3,x',
    'distance:1,2;3,4e5',
    'distance:1,2;3,Infinity',
    'distance:1,2;3,NaN',
    'distance:1,2;3,999999',
    'distance:1,2;;3,4',
    'ELLIPSE:1,2;3,4',
    'ellipse:1,2;3,4:5',
  ])('ignores %p', (text) => {
    expect(decodeMeasureParam(text)).toBeNull()
  })

  it('is drawn on the slice it names, with the label the expert saw', () => {
    const m = on('ellipse', [20, 30], [140.5, 70])
    const param = decodeMeasureParam(
      encodeMeasureParam({
        kind: 'ellipse',
        points: [
          [20, 30],
          [140.5, 70],
        ],
      }),
    )!
    const shown = measurementOf(param, slice)
    expect(shown).toEqual(m)
    const state = { ...viewOf(slices, 33), measurements: [shown] }
    const [shape] = measurementShapes(state, slice, halves())
    expect(shape!.label).toBe(ellipseLabel(slice.info, halves(), m.points))
    // Another slice does not show it.
    expect(measurementShapes(state, slices[32]!, halves())).toEqual([])
  })
})

describe('the ellipse label', () => {
  it('reads mean ± SD in HU, min/max and the area in mm²', () => {
    // 40 × 40 pixels of 0.5 mm centred on the boundary of the two halves: half at 50, half at −50.
    const label = ellipseLabel(ctInfo(1), halves(), [
      { x: 80, y: 30 },
      { x: 120, y: 70 },
    ])
    expect(label).toBe(
      `均值 0.0 ± 50.0 HU\n最小 -50 最大 50 HU · 面积 ${(Math.PI * 100).toFixed(1)} mm²`,
    )
  })

  it('says 约 with ImagerPixelSpacing only, the pixel count with no spacing, no unit off CT', () => {
    const points = [
      { x: 10, y: 10 },
      { x: 30, y: 30 },
    ]
    const imager = ctInfo(1, { pixelSpacing: undefined, imagerSpacing: [0.2, 0.2] })
    expect(ellipseLabel(imager, halves(), points)).toMatch(/· 面积 约 \d+\.\d mm²$/)
    // An MR without rescale: its stored values, no unit.
    const bare = ctInfo(1, { pixelSpacing: undefined, modality: 'MR', intercept: undefined })
    expect(ellipseLabel(bare, halves(), points)).toMatch(
      /^均值 1074\.0 ± 0\.0\n最小 1074 最大 1074 · 面积 \d+ 像素$/,
    )
    expect(ellipseLabel(ctInfo(1), null, points)).toMatch(/^面积 \d+\.\d mm²$/)
  })

  it('draws the outline closed, with no handles, its label under it (or above)', () => {
    const state = { ...viewOf(slices, 33), measurements: [on('ellipse', [20, 30], [60, 70])] }
    const [shape] = measurementShapes(state, slice, halves())
    expect(shape!.points[0]).toEqual(shape!.points[shape!.points.length - 1])
    expect(shape!.handles).toEqual([])
    const ys = shape!.points.map((p) => p.y)
    expect(shape!.labelPlace).toEqual({
      left: Math.min(...shape!.points.map((p) => p.x)),
      below: Math.max(...ys) + 8,
      above: Math.min(...ys) - 8,
    })
  })
})

describe('buildPin', () => {
  it('a slice alone: 第 n 层, no measurement, a valid ImagePin', () => {
    const pin = buildPin(source([]))
    expect(ImagePinSchema.safeParse(pin).success).toBe(true)
    expect(pin).toMatchObject({
      fieldId: 'lung-nodule',
      examId: 'x1',
      studyUid: '1.2.3',
      seriesUid: '1.2.3.4',
      sop: slice.info.sopInstanceUid,
      frame: 1,
      measurement: null,
      label: '第 34 层',
    })
    expect(pin.id).not.toBe(buildPin(source([])).id)
  })

  it("pins the shown slice's latest measurement with its values and units", () => {
    const elsewhere = { ...on('distance', [0, 0], [10, 0]), sliceKey: sliceKey(slices[2]!) }
    const distance = buildPin(
      source([
        on('angle', [0, 0], [5, 5], [10, 0]),
        on('distance', [10, 20], [26.4, 20]),
        elsewhere,
      ]),
    )
    expect(distance.label).toBe('第 34 层 · 8.2 mm')
    expect(distance.measurement).toEqual({
      kind: 'distance',
      points: [
        [10, 20],
        [26.4, 20],
      ],
      values: { lengthMm: 8.2 },
    })
    const angle = buildPin(source([on('angle', [20, 10], [10, 10], [10, 0])]))
    expect(angle.label).toBe('第 34 层 · 90.0°')
    expect(angle.measurement!.values).toEqual({ angleDeg: 90 })

    const ellipse = buildPin(source([on('ellipse', [80, 30], [120, 70])]))
    expect(ImagePinSchema.safeParse(ellipse).success).toBe(true)
    expect(ellipse.label).toBe(`第 34 层 · 0.0 ± 50.0 HU · ${(Math.PI * 100).toFixed(1)} mm²`)
    expect(ellipse.measurement!.values).toMatchObject({
      meanHu: 0,
      sdHu: 50,
      minHu: -50,
      maxHu: 50,
      areaMm2: Math.round(Math.PI * 100 * 100) / 100,
    })
    expect(ellipse.measurement!.values.pixels).toBeGreaterThan(1200)
  })

  it('off CT an ellipse pins no HU; without spacing no mm', () => {
    const mr = {
      ...slice,
      info: ctInfo(34, { modality: 'MR', pixelSpacing: undefined, intercept: undefined }),
    }
    const pin = buildPin({
      ...source([]),
      slice: mr,
      measurements: [{ ...on('ellipse', [10, 10], [30, 30]), sliceKey: sliceKey(mr) }],
    })
    expect(pin.measurement!.values).toMatchObject({ meanHu: null, areaMm2: null })
    expect(pin.label).toMatch(/^第 34 层 · 均值 1074\.0 ± 0\.0 · \d+ 像素$/)
  })

  it('opens the viewer on the pin: its slice and its measurement', () => {
    const pin = buildPin(source([on('ellipse', [80, 30], [120.5, 70])]))
    expect(pinViewerParams(pin)).toEqual({
      examId: 'x1',
      studyUid: '1.2.3',
      seriesUid: '1.2.3.4',
      sop: slice.info.sopInstanceUid,
      frame: 1,
      measure: 'ellipse:80,30;120.5,70',
    })
    expect(pinViewerParams({ ...pin, measurement: null })).not.toHaveProperty('measure')
  })
})

describe('the hand-over', () => {
  afterEach(() => jest.restoreAllMocks())

  it('carries the pin to the listener until it stops listening', () => {
    const got: ImagePin[] = []
    const stop = onPinHandedOver((pin) => got.push(pin))
    const pin = buildPin(source([]))
    handOverPin(pin)
    stop()
    handOverPin(pin)
    expect(got).toEqual([pin])
    expect(OPINION_PIN_EVENT).toBe('viewer:opinion-pin')
  })

  it('goes back past the 影像详情 the viewer was opened from, to the opinion', async () => {
    const pages = (...routes: string[]) =>
      jest
        .spyOn(Taro, 'getCurrentPages')
        .mockReturnValue(routes.map((route) => ({ route })) as never)
    const back = jest.spyOn(Taro, 'navigateBack').mockResolvedValue(undefined as never)
    pages('pages/consult/opinion', 'pages/share/exam', 'pages/personalImage/viewer')
    await backToOpinion()
    expect(back).toHaveBeenLastCalledWith({ delta: 2 })
    pages('pages/consult/opinion', 'pages/personalImage/viewer')
    await backToOpinion()
    expect(back).toHaveBeenLastCalledWith()
  })
})
