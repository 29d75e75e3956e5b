import {
  createRenderer,
  framePixels,
  imageFor,
  paintRgba,
  parseInstanceMetadata,
  type ImageDataContext,
} from '../index'
import { syntheticJson } from './support'

/**
 * A double with the mini-program Canvas 2D context's method shapes (createImageData(width,
 * height), putImageData(imageData, dx, dy)), strict about its arguments as the device is: an
 * ImageData of another context or with the wrong data length is refused.
 */
class WeappContext2D implements ImageDataContext {
  readonly created: { width: number; height: number }[] = []
  readonly puts: { data: number[]; width: number; height: number; x: number; y: number }[] = []
  private readonly mine = new WeakSet<object>()

  createImageData(...args: unknown[]) {
    if (args.length !== 2) throw new TypeError('createImageData(width, height)')
    const [width, height] = args as [number, number]
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
      throw new TypeError('createImageData: bad size')
    }
    this.created.push({ width, height })
    const image = { data: new Uint8ClampedArray(width * height * 4), width, height }
    this.mine.add(image)
    return image
  }

  putImageData(...args: unknown[]) {
    if (args.length !== 3) throw new TypeError('putImageData(imageData, dx, dy)')
    const [image, x, y] = args as [
      { data: Uint8ClampedArray; width: number; height: number },
      number,
      number,
    ]
    if (!this.mine.has(image)) throw new TypeError('putImageData: not an ImageData of this canvas')
    if (image.data.length !== image.width * image.height * 4)
      throw new TypeError('putImageData: bad data')
    this.puts.push({ data: Array.from(image.data), width: image.width, height: image.height, x, y })
  }
}

describe('paintRgba on the mini-program Canvas 2D shape', () => {
  it('puts the rendered frame at (0, 0)', () => {
    const info = parseInstanceMetadata(syntheticJson({ rows: 2, columns: 2, windows: [[50, 101]] }))
    const rgba = new Uint8ClampedArray(16)
    createRenderer(info).render(
      framePixels(info, new Uint16Array([0, 50, 100, 200]).buffer),
      info.windows[0]!,
      false,
      rgba,
    )
    const context = new WeappContext2D()
    paintRgba(context, rgba, 2, 2)
    expect(context.puts).toEqual([{ data: Array.from(rgba), width: 2, height: 2, x: 0, y: 0 }])
    expect(context.puts[0]!.data.filter((_, i) => i % 4 === 0)).toEqual([1, 129, 255, 255])
  })

  it('reuses one ImageData per context and size (a W/L drag paints every move)', () => {
    const context = new WeappContext2D()
    const rgba = new Uint8ClampedArray(3 * 2 * 4)
    for (let i = 0; i < 5; i++) {
      rgba.fill(i * 10)
      paintRgba(context, rgba, 3, 2)
    }
    expect(context.created).toEqual([{ width: 3, height: 2 }])
    expect(context.puts.map((p) => p.data[0])).toEqual([0, 10, 20, 30, 40])
    paintRgba(context, new Uint8ClampedArray(16), 2, 2)
    expect(context.created).toEqual([
      { width: 3, height: 2 },
      { width: 2, height: 2 },
    ])
    // Another canvas gets its own.
    const other = new WeappContext2D()
    paintRgba(other, new Uint8ClampedArray(16), 2, 2)
    expect(other.created).toHaveLength(1)
  })

  it('a frame rendered straight into imageFor(...).data is put without a copy', () => {
    const context = new WeappContext2D()
    const image = imageFor(context, 1, 1)
    image.data.set([1, 2, 3, 255])
    paintRgba(context, image.data, 1, 1)
    expect(context.puts[0]!.data).toEqual([1, 2, 3, 255])
    expect(context.created).toHaveLength(1)
  })
})
