import { act, createEvent, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { ImagePinSchema, type ImagePin } from '@contract/main/opinions'
import { profile } from '@/services/__tests__/account-fixtures'
import { downloadAuthorisedImage, getExamDetail } from '@/services/records'
import { fetchFrame, fetchSeriesMetadata } from '@/services/viewer'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { examDetail, series } from '../../../features/records/__tests__/fixtures'
import { onPinHandedOver } from '../../../features/viewer/pin'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  getExamDetail: jest.fn(),
  downloadAuthorisedImage: jest.fn(),
}))
jest.mock('@/services/viewer', () => ({
  ...jest.requireActual<typeof import('@/services/viewer')>('@/services/viewer'),
  fetchSeriesMetadata: jest.fn(),
  fetchFrame: jest.fn(),
}))
jest.mock('@/services/bookmarks', () => ({
  ...jest.requireActual<typeof import('@/services/bookmarks')>('@/services/bookmarks'),
  listBookmarks: jest.fn().mockResolvedValue([]),
}))

const detail = jest.mocked(getExamDetail)
const download = jest.mocked(downloadAuthorisedImage)
const metadata = jest.mocked(fetchSeriesMetadata)
const frames = jest.mocked(fetchFrame)

const ROWS = 4
const COLUMNS = 4
const SLICES = 3

/** DICOM JSON of one CT slice as the server's /metadata answers it. */
function ctInstance(n: number, overrides: Record<string, unknown> = {}) {
  const v = (vr: string, ...values: unknown[]) => ({ vr, Value: values })
  return {
    '00080018': v('UI', `1.2.9.${n}`),
    '0020000D': v('UI', '1.2.3'),
    '0020000E': v('UI', '1.2.3.4.1'),
    '00080060': v('CS', 'CT'),
    '00100010': v('PN', { Alphabetic: 'Wang^Yanshi' }),
    '00080020': v('DA', '20261120'),
    '0008103E': v('LO', '胸部平扫'),
    '00200011': v('IS', 3),
    '00200013': v('IS', n),
    '00201041': v('DS', n * 5),
    '00280010': v('US', ROWS),
    '00280011': v('US', COLUMNS),
    '00280002': v('US', 1),
    '00280004': v('CS', 'MONOCHROME2'),
    '00280100': v('US', 16),
    '00280101': v('US', 16),
    '00280102': v('US', 15),
    '00280103': v('US', 1),
    '00281052': v('DS', -1024),
    '00281053': v('DS', 1),
    '00281050': v('DS', 40),
    '00281051': v('DS', 400),
    '00280030': v('DS', 0.5, 0.5),
    ...overrides,
  }
}

/** A WADO-RS frames answer (multipart/related), built as wado.ts builds it. */
function frameAnswer(values: number[]) {
  const pixels = new Int16Array(values)
  const boundary = 'b0undary'
  // ASCII only (jsdom has no TextEncoder).
  const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))
  const head = ascii(`--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\n`)
  const tail = ascii(`\r\n--${boundary}--\r\n`)
  const body = new Uint8Array(head.length + pixels.byteLength + tail.length)
  body.set(head, 0)
  body.set(new Uint8Array(pixels.buffer), head.length)
  body.set(tail, head.length + pixels.byteLength)
  return {
    body: body.buffer,
    contentType: `multipart/related; type="application/octet-stream"; boundary=${boundary}`,
  }
}

/** A Canvas 2D double with the methods the viewer calls, recording what was put on it. */
function fakeCanvas() {
  const puts: Uint8ClampedArray[] = []
  const draws: unknown[] = []
  const context = {
    createImageData: (width: number, height: number) => ({
      data: new Uint8ClampedArray(width * height * 4),
      width,
      height,
    }),
    putImageData: (image: { data: Uint8ClampedArray }) => puts.push(image.data.slice()),
    drawImage: (image: unknown) => draws.push(image),
    setTransform: jest.fn(),
    fillRect: jest.fn(),
    clearRect: jest.fn(),
    beginPath: jest.fn(),
    moveTo: jest.fn(),
    lineTo: jest.fn(),
    arc: jest.fn(),
    stroke: jest.fn(),
    fill: jest.fn(),
    fillText: jest.fn(),
    measureText: (text: string) => ({ width: text.length * 8 }),
  }
  jest
    .spyOn(HTMLCanvasElement.prototype, 'getContext')
    .mockImplementation(() => context as unknown as CanvasRenderingContext2D)
  jest.spyOn(HTMLCanvasElement.prototype, 'getBoundingClientRect').mockReturnValue({
    width: 390,
    height: 500,
    left: 0,
    top: 0,
  } as DOMRect)
  return { puts, draws, setTransform: context.setTransform }
}

function signIn() {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
}

beforeEach(() => {
  resetStores()
  signIn()
  detail.mockResolvedValue(
    examDetail({ id: 'x1', studyUid: '1.2.3', series: [series(1, { instanceCount: SLICES })] }),
  )
  download.mockResolvedValue({ src: 'blob:preview', release: jest.fn() })
  metadata.mockResolvedValue([ctInstance(3), ctInstance(1), ctInstance(2)])
  // Stored values -1024 + 40 = 40 HU, the window centre, everywhere but one bright pixel.
  frames.mockImplementation(async () =>
    frameAnswer([2000, ...Array.from({ length: ROWS * COLUMNS - 1 }, () => 1064)]),
  )
})

afterEach(() => jest.restoreAllMocks())

async function openViewer(params: Record<string, string | number> = {}) {
  const page = await renderPage('pages/personalImage/viewer', { examId: 'x1', ...params })
  await waitFor(() => expect(page.element.textContent).toContain('窗宽 400 窗位 40'))
  return page
}

describe('影像查看 (personalImage/viewer)', () => {
  it('shows the overlay from the metadata, opening on the middle slice', async () => {
    const canvas = fakeCanvas()
    const page = await openViewer()
    const text = page.element.textContent ?? ''
    expect(text).toContain('Wang Yanshi')
    expect(text).toContain('2026-11-20')
    expect(text).toContain('序列 3 胸部平扫')
    expect(text).toContain('图像 2/3')
    expect(text).toContain('层位 10.0 mm')
    expect(metadata).toHaveBeenCalledWith('1.2.3', '1.2.3.4.1')
    expect(frames).toHaveBeenCalledWith('1.2.3', '1.2.3.4.1', '1.2.9.2', 1)
    // The neighbours are fetched ahead.
    await waitFor(() => expect(frames).toHaveBeenCalledTimes(3))
    expect(frames).toHaveBeenCalledWith('1.2.3', '1.2.3.4.1', '1.2.9.3', 1)
    expect(frames).toHaveBeenCalledWith('1.2.3', '1.2.3.4.1', '1.2.9.1', 1)
    // The middle slice's server rendering is the preview painted first.
    expect(download).toHaveBeenCalledWith(
      '/dicomweb/studies/1.2.3/series/1.2.3.4.1/instances/9/rendered',
    )
    // The raw frame replaced it: rendered through the window (40 HU at centre 40 → mid grey).
    await waitFor(() => expect(canvas.puts.length).toBeGreaterThan(0))
    const rgba = canvas.puts[canvas.puts.length - 1]!
    expect(rgba[0]).toBe(255)
    expect(Math.abs(rgba[4]! - 127.5)).toBeLessThanOrEqual(1)
    expect(rgba[7]).toBe(255)
  })

  it('a preset changes the window text and the pixels', async () => {
    const canvas = fakeCanvas()
    await openViewer()
    await waitFor(() => expect(canvas.puts.length).toBeGreaterThan(0))
    fireEvent.click(screen.getByText('肺窗'))
    await waitFor(() => expect(screen.getByText('窗宽 1500 窗位 -600')).toBeTruthy())
    // 40 HU in a lung window (−600 ± 750) is brighter than in the default one.
    await waitFor(() => expect(canvas.puts[canvas.puts.length - 1]![4]).toBeGreaterThan(200))
  })

  it('the slider buttons change the slice n/N and fetch that slice', async () => {
    await openViewer()
    fireEvent.click(screen.getByTestId('viewer-next'))
    await waitFor(() => expect(screen.getByText('图像 3/3')).toBeTruthy())
    expect(frames).toHaveBeenCalledWith('1.2.3', '1.2.3.4.1', '1.2.9.3', 1)
    fireEvent.click(screen.getByTestId('viewer-prev'))
    fireEvent.click(screen.getByTestId('viewer-prev'))
    await waitFor(() => expect(screen.getByText('图像 1/3')).toBeTruthy())
    expect(screen.getByText('层位 5.0 mm')).toBeTruthy()
  })

  it('opens on the slice a key image or bookmark names', async () => {
    await openViewer({ seriesUid: '1.2.3.4.1', sop: '1.2.9.3', frame: 1 })
    expect(screen.getByText('图像 3/3')).toBeTruthy()
    expect(download).toHaveBeenCalledWith(
      '/dicomweb/studies/1.2.3/series/1.2.3.4.1/instances/1.2.9.3/frames/1/rendered',
    )
  })

  it('plays the stack as a cine, wrapping round, and pauses', async () => {
    await openViewer()
    fireEvent.click(screen.getByText('播放'))
    await waitFor(() => expect(screen.getByText('图像 3/3')).toBeTruthy())
    await waitFor(() => expect(screen.getByText('图像 1/3')).toBeTruthy())
    fireEvent.click(screen.getByText('暂停'))
    const shown = screen.getByText(/^图像 \d\/3$/).textContent
    await new Promise((resolve) => setTimeout(resolve, 250))
    expect(screen.getByText(/^图像 \d\/3$/).textContent).toBe(shown)
  })

  it('measures a distance dragged with 测距 in mm from PixelSpacing', async () => {
    const canvas = fakeCanvas()
    const page = await openViewer()
    await waitFor(() => expect(canvas.puts.length).toBeGreaterThan(0))
    fireEvent.click(screen.getByText('测距'))
    // The 4×4 image fits the 390 px wide stage: 97.5 px per pixel, so 195 px are 2 pixels = 1 mm.
    const stage = page.element.querySelector('#image-viewer-stage')!
    const at = (x: number) => ({ touches: [{ identifier: 0, clientX: x, clientY: 250 }] })
    fireEvent.touchStart(stage, at(50))
    for (const x of [100, 150, 200, 245]) fireEvent.touchMove(stage, at(x))
    fireEvent.touchEnd(stage, { touches: [] })
    const result = await screen.findByTestId('viewer-measure')
    expect(result.textContent).toBe('1.0 mm')
  })

  it('measures an ellipse dragged with 椭圆: mean ± SD in HU over the pixel centres inside', async () => {
    const canvas = fakeCanvas()
    const page = await openViewer()
    await waitFor(() => expect(canvas.puts.length).toBeGreaterThan(0))
    fireEvent.click(screen.getByText('椭圆'))
    expect(screen.getByText(/拖动画出椭圆/)).toBeTruthy()
    // The 4×4 image fills the 390 px width (97.5 px a pixel) from y = 55: the whole image's box.
    // Its corners' centres are outside the circle, the bright top-left pixel with them.
    const stage = page.element.querySelector('#image-viewer-stage')!
    const at = (x: number, y: number) => ({ touches: [{ identifier: 0, clientX: x, clientY: y }] })
    fireEvent.touchStart(stage, at(0, 55))
    for (const x of [100, 200, 300, 390]) fireEvent.touchMove(stage, at(x, 55 + x))
    fireEvent.touchEnd(stage, { touches: [] })
    await waitFor(() =>
      expect(screen.getByTestId('viewer-measure').textContent).toBe(
        `均值 40.0 ± 0.0 HU最小 40 最大 40 HU · 面积 ${Math.PI.toFixed(1)} mm²`,
      ),
    )
  })

  it('show mode: opens on the pinned slice with its measurement drawn and its values', async () => {
    const canvas = fakeCanvas()
    await openViewer({
      seriesUid: '1.2.3.4.1',
      sop: '1.2.9.3',
      frame: 1,
      measure: 'ellipse:0,0;1,1',
    })
    expect(screen.getByText('图像 3/3')).toBeTruthy()
    await waitFor(() => expect(canvas.puts.length).toBeGreaterThan(0))
    // Only the bright pixel's centre (0.5, 0.5) is inside: 2000 − 1024 HU.
    await waitFor(() =>
      expect(screen.getByTestId('viewer-measure').textContent).toBe(
        `均值 976.0 ± 0.0 HU最小 976 最大 976 HU · 面积 ${(Math.PI * 0.25 * 0.25).toFixed(1)} mm²`,
      ),
    )
    // Another slice does not show it; back on its own it is there again.
    fireEvent.click(screen.getByTestId('viewer-prev'))
    await waitFor(() => expect(screen.queryByTestId('viewer-measure')).toBeNull())
    fireEvent.click(screen.getByTestId('viewer-next'))
    await waitFor(() => expect(screen.getByTestId('viewer-measure')).toBeTruthy())
  })

  it('show mode: a measure for an image not in the series, or a broken one, is not drawn', async () => {
    fakeCanvas()
    await openViewer({ seriesUid: '1.2.3.4.1', sop: '9.9.9', measure: 'ellipse:0,0;2,2' })
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.queryByTestId('viewer-measure')).toBeNull()
    await openViewer({ seriesUid: '1.2.3.4.1', sop: '1.2.9.3', measure: 'ellipse:0,0' })
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.queryByTestId('viewer-measure')).toBeNull()
  })

  it('pin mode: 附到意见 hands over the shown slice and its measurement, then goes back', async () => {
    const canvas = fakeCanvas()
    const back = jest.spyOn(Taro, 'navigateBack').mockResolvedValue(undefined as never)
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{}, {}] as never)
    const pins: ImagePin[] = []
    const stop = onPinHandedOver((pin) => pins.push(pin))
    const page = await openViewer({ pin: 'nodule' })
    await waitFor(() => expect(canvas.puts.length).toBeGreaterThan(0))
    fireEvent.click(screen.getByText('测距'))
    const stage = page.element.querySelector('#image-viewer-stage')!
    const at = (x: number) => ({ touches: [{ identifier: 0, clientX: x, clientY: 250 }] })
    fireEvent.touchStart(stage, at(50))
    for (const x of [100, 150, 200, 245]) fireEvent.touchMove(stage, at(x))
    fireEvent.touchEnd(stage, { touches: [] })
    await screen.findByTestId('viewer-measure')
    fireEvent.click(screen.getByTestId('viewer-attach'))
    stop()
    expect(pins).toHaveLength(1)
    const [pin] = pins
    expect(ImagePinSchema.safeParse(pin).success).toBe(true)
    expect(pin).toMatchObject({
      fieldId: 'nodule',
      examId: 'x1',
      studyUid: '1.2.3',
      seriesUid: '1.2.3.4.1',
      sop: '1.2.9.2',
      frame: 1,
      label: '第 2 层 · 1.0 mm',
      measurement: { kind: 'distance', values: { lengthMm: 1 } },
    })
    await waitFor(() => expect(back).toHaveBeenCalled())
  })

  it('offers 附到意见 only in pin mode', async () => {
    await openViewer()
    expect(screen.queryByText('附到意见')).toBeNull()
  })

  it("does not paint the shown slice's pixels as the next slice while that one loads", async () => {
    const canvas = fakeCanvas()
    let arrive: (answer: ReturnType<typeof frameAnswer>) => void = () => undefined
    const later = new Promise<ReturnType<typeof frameAnswer>>((resolve) => (arrive = resolve))
    frames.mockImplementation(async (_study, _series, sop) =>
      sop === '1.2.9.3'
        ? later
        : frameAnswer([2000, ...Array.from({ length: ROWS * COLUMNS - 1 }, () => 1064)]),
    )
    const page = await openViewer()
    await waitFor(() => expect(canvas.puts.length).toBeGreaterThan(0))
    const before = canvas.puts.length
    fireEvent.click(screen.getByTestId('viewer-next'))
    await waitFor(() => expect(screen.getByText('图像 3/3')).toBeTruthy())
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)))
    // Slice 2's pixels through slice 3's renderer would be a wrong image under 图像 3/3.
    expect(canvas.puts.length).toBe(before)
    // A long press meanwhile reads no value (not slice 2's under slice 3's name).
    const stage = page.element.querySelector('#image-viewer-stage')!
    fireEvent.touchStart(stage, { touches: [{ identifier: 0, clientX: 195, clientY: 250 }] })
    await act(async () => new Promise((resolve) => setTimeout(resolve, 700)))
    expect(page.element.querySelector('.image-viewer__probe')).toBeNull()
    fireEvent.touchEnd(stage, { touches: [] })
    await act(async () => arrive(frameAnswer(Array.from({ length: ROWS * COLUMNS }, () => 2000))))
    await waitFor(() => expect(canvas.puts.length).toBeGreaterThan(before))
    expect(canvas.puts[canvas.puts.length - 1]![4]).toBe(255)
  })

  it('paints a cached slice in the wheel event itself, once, before React renders', async () => {
    const canvas = fakeCanvas()
    frames.mockImplementation(async (_study, _series, sop) =>
      frameAnswer(Array.from({ length: ROWS * COLUMNS }, () => (sop === '1.2.9.3' ? 2000 : 1064))),
    )
    const page = await openViewer()
    await waitFor(() => expect(canvas.puts.length).toBeGreaterThan(0))
    // The neighbours are fetched ahead and arrive in the cache.
    await waitFor(() => expect(frames).toHaveBeenCalledTimes(3))
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)))
    const before = canvas.puts.length
    const stage = page.element.querySelector('#image-viewer-stage')!
    // Not through fireEvent (act would flush React's work): the paint must not wait for it. React
    // then schedules its render as in a browser (no act environment, no warning).
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false
    stage.dispatchEvent(new WheelEvent('wheel', { deltaY: 100, bubbles: true, cancelable: true }))
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = true
    expect(canvas.puts.length).toBe(before + 1)
    // Slice 3 (all 2000 = 976 HU, far above the 40 ± 200 window): white.
    expect(canvas.puts[before]![4]).toBe(255)
    await waitFor(() => expect(screen.getByText('图像 3/3')).toBeTruthy())
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)))
    // React's commit did not draw the same frame again.
    expect(canvas.puts.length).toBe(before + 1)
  })

  it('paints a W/L drag in the touch move itself, once, before React renders', async () => {
    const canvas = fakeCanvas()
    const page = await openViewer()
    await waitFor(() => expect(canvas.puts.length).toBeGreaterThan(0))
    const stage = page.element.querySelector('#image-viewer-stage')!
    const at = (x: number) => ({ touches: [{ identifier: 0, clientX: x, clientY: 250 }] })
    fireEvent.touchStart(stage, at(100))
    const before = canvas.puts.length
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false
    // Far to the right: a much wider window (the bright pixel of 2000 stays white, 40 HU grey).
    stage.dispatchEvent(createEvent.touchMove(stage, at(250)))
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = true
    expect(canvas.puts.length).toBe(before + 1)
    fireEvent.touchEnd(stage, { touches: [] })
    await waitFor(() => expect(screen.queryByText('窗宽 400 窗位 40')).toBeNull())
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(canvas.puts.length).toBe(before + 1)
  })

  it('keeps the rotation when the stage is made again (横屏全屏)', async () => {
    const canvas = fakeCanvas()
    await openViewer()
    // The stage is drawn (its painter made) before it is turned.
    await waitFor(() => expect(canvas.puts.length).toBeGreaterThan(0))
    // The image canvas is placed by a CSS matrix(a, b, c, d, e, f); a quarter turn has a = 0.
    const matrixA = () => {
      const style = document.getElementById('image-viewer-canvas')!.style.transform
      const match = /matrix\(([^,]+),/.exec(style)
      return match ? Number(match[1]) : Number.NaN
    }
    await waitFor(() => expect(matrixA()).toBeGreaterThan(0))
    fireEvent.click(screen.getByText('旋转'))
    await waitFor(() => expect(Math.abs(matrixA())).toBeLessThan(1e-9))
    const puts = canvas.puts.length
    fireEvent.click(screen.getByText('横屏全屏'))
    await waitFor(() => expect(screen.getByText('退出全屏')).toBeTruthy())
    // The new stage is drawn again, and its image is still turned (not made upright again).
    await waitFor(() => expect(canvas.puts.length).toBeGreaterThan(puts))
    expect(Math.abs(matrixA())).toBeLessThan(1e-9)
  })

  it('hides and shows the information overlay', async () => {
    await openViewer()
    fireEvent.click(screen.getByText('隐藏信息'))
    expect(screen.queryByText('图像 2/3')).toBeNull()
    fireEvent.click(screen.getByText('显示信息'))
    expect(screen.getByText('图像 2/3')).toBeTruthy()
  })

  it('says 未找到影像 when the series is not in the exam', async () => {
    const page = await renderPage('pages/personalImage/viewer', { examId: 'x1', seriesUid: '9.9' })
    await waitFor(() => expect(page.element.textContent).toContain('未找到影像'))
    expect(metadata).not.toHaveBeenCalled()
  })

  it('says 暂不支持该图像格式的预览 when no instance can be displayed', async () => {
    metadata.mockResolvedValue([ctInstance(1, { '00280004': { vr: 'CS', Value: ['YBR_ICT'] } })])
    const page = await renderPage('pages/personalImage/viewer', { examId: 'x1' })
    await waitFor(() => expect(page.element.textContent).toContain('暂不支持该图像格式的预览'))
  })

  it('asks for the exam number when opened without one', async () => {
    const page = await renderPage('pages/personalImage/viewer')
    await act(async () => undefined)
    expect(page.element.textContent).toContain('缺少检查编号')
  })
})
