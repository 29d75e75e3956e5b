import { act, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { Context2D } from '@/platform/canvas'
import { canvasSurface } from '@/platform/canvas'
import { brightenScreen } from '@/platform/screen-brightness'
import { BAR_CODE_INVALID, BarCode } from '../bar-code-view'
import { barsOf, code128Modules } from '../code128'
import { renderComponent, renderPage } from '../../../../jest/taro-render'

jest.mock('@/platform/canvas', () => ({ canvasSurface: jest.fn() }))
jest.mock('@/platform/screen-brightness', () => ({
  ...jest.requireActual('@/platform/screen-brightness'),
  brightenScreen: jest.fn(),
}))

const surface = jest.mocked(canvasSurface)
const brighten = jest.mocked(brightenScreen)

function recordingContext() {
  const rects: { colour: unknown; x: number; width: number; height: number }[] = []
  const context: Context2D = {
    fillStyle: '',
    fillRect(x, _y, width, height) {
      rects.push({ colour: this.fillStyle, x, width, height })
    },
    clearRect: () => undefined,
    setTransform: () => undefined,
  }
  return { context, rects }
}

async function flush() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
}

beforeEach(() => {
  jest.clearAllMocks()
})

describe('BarCode', () => {
  it('draws one black rectangle per bar in whole pixels, with the number below', async () => {
    const { context, rects } = recordingContext()
    surface.mockResolvedValue({ context, width: 0, height: 0 })
    await renderComponent(<BarCode value="CT2030000001" maxWidth={320} height={80} />)
    await flush()
    const modules = code128Modules('CT2030000001')!
    const moduleWidth = Math.floor(320 / modules.length)
    expect(surface).toHaveBeenCalledWith('bar-code-canvas', modules.length * moduleWidth, 80)
    const black = rects.filter((rect) => rect.colour === '#000000')
    expect(black).toHaveLength(barsOf(modules).length)
    expect(black.every((rect) => Number.isInteger(rect.x) && rect.height === 80)).toBe(true)
    expect(black[0]!.x).toBe(10 * moduleWidth)
    expect(screen.getByText('CT2030000001')).toBeTruthy()
  })

  it('says so for a number it cannot encode', async () => {
    await renderComponent(<BarCode value="检查号" />)
    expect(screen.getByText(BAR_CODE_INVALID)).toBeTruthy()
    expect(surface).not.toHaveBeenCalled()
  })
})

describe('/components/bar-code/bar-code', () => {
  it('shows the number, brightens the screen and restores it on leaving', async () => {
    const restore = jest.fn()
    brighten.mockResolvedValue(restore)
    surface.mockResolvedValue(null)
    await renderPage('components/bar-code/bar-code', { value: 'CT2030000001', title: '检查号' })
    await flush()
    expect(screen.getByText('检查号')).toBeTruthy()
    expect(screen.getByText('CT2030000001')).toBeTruthy()
    expect(brighten).toHaveBeenCalled()
    await renderPage('pages/lead/lead')
    await flush()
    expect(restore).toHaveBeenCalled()
  })

  it('without a usable number says where to open it from', async () => {
    brighten.mockResolvedValue(() => undefined)
    await renderPage('components/bar-code/bar-code')
    expect(await screen.findByText('缺少或无法识别的编号，请从检查详情中打开条形码')).toBeTruthy()
  })
})

describe('brightenScreen', () => {
  const real = jest.requireActual<typeof import('@/platform/screen-brightness')>(
    '@/platform/screen-brightness',
  )
  const env = process.env.TARO_ENV
  afterEach(() => {
    process.env.TARO_ENV = env
    jest.restoreAllMocks()
  })

  it('weapp: full brightness, kept on, and the old brightness back on restore', async () => {
    process.env.TARO_ENV = 'weapp'
    const get = jest
      .spyOn(Taro, 'getScreenBrightness')
      .mockResolvedValue({ value: 0.35, errMsg: 'ok' } as never)
    const set = jest.spyOn(Taro, 'setScreenBrightness').mockResolvedValue({ errMsg: 'ok' })
    const keep = jest.spyOn(Taro, 'setKeepScreenOn').mockResolvedValue({ errMsg: 'ok' })
    const restore = await real.brightenScreen()
    expect(get).toHaveBeenCalled()
    expect(set).toHaveBeenLastCalledWith({ value: 1 })
    expect(keep).toHaveBeenLastCalledWith({ keepScreenOn: true })
    restore()
    expect(set).toHaveBeenLastCalledWith({ value: 0.35 })
    expect(keep).toHaveBeenLastCalledWith({ keepScreenOn: false })
  })

  it('weapp: a refused brightness change is not an error', async () => {
    process.env.TARO_ENV = 'weapp'
    jest.spyOn(Taro, 'getScreenBrightness').mockRejectedValue(new Error('no'))
    jest.spyOn(Taro, 'setScreenBrightness').mockRejectedValue(new Error('no'))
    const restore = await real.brightenScreen()
    expect(() => restore()).not.toThrow()
  })

  it('H5: keeps the screen awake where the browser allows, nothing else', async () => {
    process.env.TARO_ENV = 'h5'
    const release = jest.fn().mockResolvedValue(undefined)
    const request = jest.fn().mockResolvedValue({ release })
    Object.defineProperty(navigator, 'wakeLock', { value: { request }, configurable: true })
    const restore = await real.brightenScreen()
    expect(request).toHaveBeenCalledWith('screen')
    restore()
    expect(release).toHaveBeenCalled()
    Reflect.deleteProperty(navigator, 'wakeLock')
  })
})
