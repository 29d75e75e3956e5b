import { enterFullscreen } from '../components/fullscreen'

/**
 * 横屏全屏's capability checks: only a browser that really turned answers true; a missing API
 * (iOS Safari, WeChat's browser) is not a success, so the viewer turns itself with CSS there.
 */
describe('enterFullscreen', () => {
  const root = document.documentElement as unknown as { requestFullscreen?: unknown }
  const scr = screen as unknown as { orientation?: unknown }
  const saved = { request: root.requestFullscreen, orientation: scr.orientation }

  afterEach(() => {
    root.requestFullscreen = saved.request
    Object.defineProperty(screen, 'orientation', {
      value: saved.orientation,
      configurable: true,
    })
  })

  function setOrientation(value: unknown) {
    Object.defineProperty(screen, 'orientation', { value, configurable: true })
  }

  it('answers false where neither the Fullscreen API nor an orientation lock exists', async () => {
    root.requestFullscreen = undefined
    setOrientation(undefined)
    await expect(enterFullscreen()).resolves.toBe(false)
  })

  it('answers false with full screen but no orientation lock', async () => {
    root.requestFullscreen = jest.fn(async () => undefined)
    setOrientation({ type: 'portrait-primary' })
    await expect(enterFullscreen()).resolves.toBe(false)
    expect(root.requestFullscreen).toHaveBeenCalled()
  })

  it('answers false when the lock is refused (a desktop browser)', async () => {
    root.requestFullscreen = jest.fn(async () => undefined)
    setOrientation({ lock: jest.fn(async () => Promise.reject(new Error('NotSupportedError'))) })
    await expect(enterFullscreen()).resolves.toBe(false)
  })

  it('answers true when full screen and the landscape lock both succeed', async () => {
    root.requestFullscreen = jest.fn(async () => undefined)
    const lock = jest.fn(async () => undefined)
    setOrientation({ lock })
    await expect(enterFullscreen()).resolves.toBe(true)
    expect(lock).toHaveBeenCalledWith('landscape')
  })
})
