import {
  clientToStage,
  fit,
  fitScale,
  flipHorizontal,
  imageToScreen,
  imageTransform,
  initialViewport,
  MAX_SCALE,
  pan,
  pixelAt,
  rotateClockwise,
  scaleBar,
  screenToImage,
  zoomAt,
  type Viewport,
} from '../viewport'

const view = { width: 390, height: 600 }
const image = { width: 512, height: 256 }

function close(actual: { x: number; y: number }, expected: { x: number; y: number }) {
  expect(actual.x).toBeCloseTo(expected.x, 6)
  expect(actual.y).toBeCloseTo(expected.y, 6)
}

describe('viewport', () => {
  it('fits the whole image, centred, and maps its corners to the view edges', () => {
    const vp = initialViewport(view, image)
    expect(vp.scale).toBeCloseTo(390 / 512)
    close(imageToScreen(vp, view, image, { x: 0, y: 0 }), { x: 0, y: 300 - 128 * vp.scale })
    close(imageToScreen(vp, view, image, { x: 512, y: 256 }), { x: 390, y: 300 + 128 * vp.scale })
  })

  it('fits the turned size after a quarter turn', () => {
    expect(fitScale(view, image, 90)).toBeCloseTo(Math.min(390 / 256, 600 / 512))
    const turned = fit(view, image, rotateClockwise(initialViewport(view, image)))
    expect(turned.rotation).toBe(90)
    expect(turned.scale).toBeCloseTo(600 / 512)
  })

  it('screen → image inverts image → screen for every rotation and flip', () => {
    let vp: Viewport = { scale: 1.7, offsetX: 13, offsetY: -40, rotation: 0, flipped: false }
    const p = { x: 100.5, y: 37.25 }
    for (let i = 0; i < 8; i += 1) {
      close(screenToImage(vp, view, image, imageToScreen(vp, view, image, p)), p)
      vp = i % 2 === 0 ? rotateClockwise(vp) : flipHorizontal(vp)
    }
  })

  it('turns clockwise: the image right edge goes to the bottom', () => {
    const vp = rotateClockwise(initialViewport(view, image))
    const centre = imageToScreen(vp, view, image, { x: 256, y: 128 })
    const right = imageToScreen(vp, view, image, { x: 512, y: 128 })
    close(centre, { x: 195, y: 300 })
    expect(right.x).toBeCloseTo(195)
    expect(right.y).toBeGreaterThan(300)
  })

  it('flips left–right as seen on screen, also when turned', () => {
    for (const start of [
      initialViewport(view, image),
      rotateClockwise(initialViewport(view, image)),
    ]) {
      const p = { x: 400, y: 30 }
      const before = imageToScreen(start, view, image, p)
      const after = imageToScreen(flipHorizontal(start), view, image, p)
      expect(after.x).toBeCloseTo(390 - before.x)
      expect(after.y).toBeCloseTo(before.y)
    }
  })

  it('zooms around the fingers: the image point under them stays put', () => {
    const vp = initialViewport(view, image)
    const at = { x: 300, y: 200 }
    const under = screenToImage(vp, view, image, at)
    const zoomed = zoomAt(vp, view, image, 2.5, at)
    expect(zoomed.scale).toBeCloseTo(vp.scale * 2.5)
    close(imageToScreen(zoomed, view, image, under), at)
  })

  it('bounds the zoom both ways and ignores nonsense factors', () => {
    const vp = initialViewport(view, image)
    expect(zoomAt(vp, view, image, 1e6, { x: 0, y: 0 }).scale).toBe(MAX_SCALE)
    expect(zoomAt(vp, view, image, 1e-6, { x: 0, y: 0 }).scale).toBeCloseTo(vp.scale / 4)
    expect(zoomAt(vp, view, image, Number.NaN, { x: 0, y: 0 })).toBe(vp)
    expect(zoomAt(vp, view, image, -2, { x: 0, y: 0 })).toBe(vp)
  })

  it('pans by screen pixels and a double tap (fit) brings it back, keeping the turn', () => {
    const moved = pan(rotateClockwise(initialViewport(view, image)), 50, -20)
    close(imageToScreen(moved, view, image, { x: 256, y: 128 }), { x: 245, y: 280 })
    const fitted = fit(view, image, moved)
    expect(fitted).toMatchObject({ offsetX: 0, offsetY: 0, rotation: 90 })
  })

  it('answers the pixel under a point, null outside the image', () => {
    const vp = initialViewport(view, image)
    expect(pixelAt(vp, view, image, { x: 1, y: 300 })).toEqual({ x: 1, y: 128 })
    expect(pixelAt(vp, view, image, { x: 195, y: 10 })).toBeNull()
  })

  it('gives a canvas matrix equal to the point mapping', () => {
    const vp = flipHorizontal(rotateClockwise({ ...initialViewport(view, image), scale: 2 }))
    const [a, b, c, d, e, f] = imageTransform(vp, view, image)
    const p = { x: 10, y: 20 }
    close({ x: a * p.x + c * p.y + e, y: b * p.x + d * p.y + f }, imageToScreen(vp, view, image, p))
  })

  it('picks a round scale-bar length that fits', () => {
    // 0.5 mm pixels at scale 1: 2 px per mm; 100 px allows 50 mm (100 px), not 100 mm.
    expect(scaleBar(0.5, 1, 100)).toEqual({ mm: 50, px: 100 })
    expect(scaleBar(0.7, 0.76, 120)?.mm).toBe(100)
    expect(scaleBar(null, 1, 100)).toBeNull()
    expect(scaleBar(0.5, 1, 1)).toBeNull()
  })

  it('maps a client point into the stage, upright and turned 90° clockwise (横屏全屏 by CSS)', () => {
    // Upright: the stage's box at (10, 80).
    expect(
      clientToStage({ x: 30, y: 100 }, { left: 10, top: 80, width: 390, height: 500 }, false),
    ).toEqual({ x: 20, y: 20 })
    // Turned on a 390×844 window: the stage (844 wide, 300 high in its own pixels) shows as a box
    // 300 wide and 844 high at the window's right edge; its top left corner is the box's top right.
    const box = { left: 90, top: 0, width: 300, height: 844 }
    expect(clientToStage({ x: 390, y: 0 }, box, true)).toEqual({ x: 0, y: 0 })
    // Down the screen is along the stage's x; leftwards is along its y.
    expect(clientToStage({ x: 390, y: 600 }, box, true)).toEqual({ x: 600, y: 0 })
    expect(clientToStage({ x: 140, y: 0 }, box, true)).toEqual({ x: 0, y: 250 })
    // The stage's far corner (844, 300) is the box's bottom left.
    expect(clientToStage({ x: 90, y: 844 }, box, true)).toEqual({ x: 844, y: 300 })
  })
})
