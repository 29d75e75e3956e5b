import { canvasNode } from '@/platform/canvas'
import { createPainter, type ScreenShape } from '../components/painter'

jest.mock('@/platform/canvas', () => ({ canvasNode: jest.fn(), pixelRatio: () => 1 }))

const VIEW = { width: 390, height: 500 }
/** Every label character is 8 px wide here. */
const CHAR_PX = 8

/** A Canvas 2D double that records the calls the overlay's shapes make. */
function overlayContext() {
  const calls: { name: string; args: unknown[] }[] = []
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      void calls.push({ name, args })
  const context = {
    createImageData: (width: number, height: number) => ({
      data: new Uint8ClampedArray(width * height * 4),
      width,
      height,
    }),
    putImageData: record('putImageData'),
    setTransform: record('setTransform'),
    clearRect: record('clearRect'),
    beginPath: record('beginPath'),
    moveTo: record('moveTo'),
    lineTo: record('lineTo'),
    arc: record('arc'),
    stroke: record('stroke'),
    fill: record('fill'),
    fillRect: record('fillRect'),
    fillText: record('fillText'),
    measureText: (text: string) => ({ width: text.length * CHAR_PX }),
    fillStyle: '' as unknown,
    strokeStyle: '' as unknown,
    lineWidth: 1,
    font: '',
  }
  return { context, calls }
}

async function painterFor() {
  const overlay = overlayContext()
  const image = overlayContext()
  const node = (context: unknown, size: { width: number; height: number }) => ({
    canvas: { width: 0, height: 0, getContext: () => context },
    ...size,
  })
  jest
    .mocked(canvasNode)
    .mockResolvedValueOnce(node(image.context, { width: 100, height: 100 }))
    .mockResolvedValueOnce(node(overlay.context, VIEW))
  const painter = await createPainter('image', 'overlay', { width: 100, height: 100 })
  return { painter: painter!, calls: overlay.calls }
}

const texts = (calls: { name: string; args: unknown[] }[]) =>
  calls.filter((c) => c.name === 'fillText').map((c) => c.args as [string, number, number])

describe('the painter: measurements on the overlay canvas', () => {
  it('an ellipse: its closed outline, no dots, its two label lines under it on a dark backing', async () => {
    const { painter, calls } = await painterFor()
    const outline = [
      { x: 100, y: 200 },
      { x: 150, y: 150 },
      { x: 200, y: 200 },
      { x: 150, y: 250 },
      { x: 100, y: 200 },
    ]
    const shape: ScreenShape = {
      points: outline,
      handles: [],
      labelPlace: { left: 100, below: 258, above: 142 },
      label: '均值 40.0 ± 0.0 HU\n面积 3.1 mm²',
      active: false,
    }
    painter.drawShapes([shape])
    expect(calls.filter((c) => c.name === 'lineTo')).toHaveLength(4)
    expect(calls.filter((c) => c.name === 'arc')).toHaveLength(0)
    const [first, second] = texts(calls)
    expect(first).toEqual(['均值 40.0 ± 0.0 HU', 100, 258 + 14])
    expect(second).toEqual(['面积 3.1 mm²', 100, 258 + 14 + 18])
    const backing = calls.find((c) => c.name === 'fillRect')!.args as number[]
    expect(backing[0]).toBeLessThan(100)
    expect(backing[1]).toBeLessThan(258)
  })

  it('keeps a label on the stage: above the ellipse at the bottom, inside at the right', async () => {
    const { painter, calls } = await painterFor()
    const label = `${'x'.repeat(30)}\n${'y'.repeat(10)}`
    painter.drawShapes([
      {
        points: [
          { x: 300, y: 440 },
          { x: 380, y: 490 },
        ],
        handles: [],
        labelPlace: { left: 300, below: 498, above: 432 },
        label,
        active: false,
      },
    ])
    const lines = texts(calls)
    const width = 30 * CHAR_PX
    for (const [, x, y] of lines) {
      expect(x + width).toBeLessThanOrEqual(VIEW.width)
      expect(y).toBeLessThanOrEqual(VIEW.height)
    }
    // Above: the last line's baseline is over the ellipse's top.
    expect(lines[lines.length - 1]![2]).toBeLessThanOrEqual(432)
  })

  it('a line: dots at its ends and its label beside the last one', async () => {
    const { painter, calls } = await painterFor()
    painter.drawShapes([
      {
        points: [
          { x: 50, y: 100 },
          { x: 150, y: 100 },
        ],
        label: '10.0 mm',
        active: false,
      },
    ])
    expect(calls.filter((c) => c.name === 'arc')).toHaveLength(2)
    expect(texts(calls)).toEqual([['10.0 mm', 158, 92]])
  })
})
