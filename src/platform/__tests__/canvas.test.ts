import Taro from '@tarojs/taro'
import { canvasSurface } from '../canvas'

function fakeCanvas() {
  const context = {
    fillStyle: '',
    fillRect: jest.fn(),
    clearRect: jest.fn(),
    setTransform: jest.fn(),
  }
  return { width: 0, height: 0, getContext: jest.fn(() => context), context }
}

describe('canvasSurface', () => {
  const env = process.env.TARO_ENV
  afterEach(() => {
    process.env.TARO_ENV = env
    jest.restoreAllMocks()
    document.body.innerHTML = ''
  })

  it("H5: the canvas inside Taro's canvas element, sized for the pixel ratio", async () => {
    process.env.TARO_ENV = 'h5'
    Object.defineProperty(window, 'devicePixelRatio', { value: 2, configurable: true })
    const host = document.createElement('taro-canvas-core')
    host.id = 'c1'
    const inner = document.createElement('canvas')
    host.appendChild(inner)
    document.body.appendChild(host)
    const fake = fakeCanvas()
    jest.spyOn(inner, 'getContext').mockImplementation(fake.getContext as never)
    const surface = await canvasSurface('c1', 150, 40)
    expect(surface).not.toBeNull()
    expect(inner.width).toBe(300)
    expect(inner.height).toBe(80)
    expect(fake.context.setTransform).toHaveBeenCalledWith(2, 0, 0, 2, 0, 0)
    expect(surface!.width).toBe(150)
  })

  it('weapp: the node of a selector query, at the window pixel ratio (at most 3)', async () => {
    process.env.TARO_ENV = 'weapp'
    const node = fakeCanvas()
    const exec = jest.fn((callback: (result: unknown[]) => void) => callback([{ node }]))
    const fields = jest.fn(() => ({ exec }))
    const select = jest.fn(() => ({ fields }))
    jest.spyOn(Taro, 'createSelectorQuery').mockReturnValue({ select } as never)
    jest.spyOn(Taro, 'getWindowInfo').mockReturnValue({ pixelRatio: 4 } as never)
    const surface = await canvasSurface('qr', 100, 100)
    expect(select).toHaveBeenCalledWith('#qr')
    expect(fields).toHaveBeenCalledWith({ node: true, size: true })
    expect(node.width).toBe(300)
    expect(node.context.setTransform).toHaveBeenCalledWith(3, 0, 0, 3, 0, 0)
    expect(surface?.context).toBe(node.context)
  })

  it('answers null when the page has no such canvas', async () => {
    process.env.TARO_ENV = 'h5'
    jest.useFakeTimers()
    const pending = canvasSurface('missing', 10, 10)
    await jest.runAllTimersAsync()
    await expect(pending).resolves.toBeNull()
    jest.useRealTimers()
  })
})
