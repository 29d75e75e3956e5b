/** Puts RGBA on a 2D context of either platform (weapp Canvas 2D or DOM). */
export interface ImageDataContext {
  createImageData(
    width: number,
    height: number,
  ): { data: Uint8ClampedArray; width: number; height: number }
  putImageData(
    image: { data: Uint8ClampedArray; width: number; height: number },
    x: number,
    y: number,
  ): void
}

type Image = ReturnType<ImageDataContext['createImageData']>

// One ImageData per context and size: a W/L drag paints every move and must not allocate a
// frame's worth of memory each time.
const images = new WeakMap<ImageDataContext, Image>()

/**
 * Copies `rgba` (width*height*4 bytes) into the context's ImageData and puts it at (0, 0). A
 * caller that renders straight into `imageFor(context, w, h).data` skips the copy.
 */
export function paintRgba(
  context: ImageDataContext,
  rgba: Uint8ClampedArray,
  width: number,
  height: number,
): void {
  const image = imageFor(context, width, height)
  if (rgba !== image.data) image.data.set(rgba.subarray(0, width * height * 4))
  context.putImageData(image, 0, 0)
}

/** The context's reusable ImageData of this size (created on first use or when the size changes). */
export function imageFor(context: ImageDataContext, width: number, height: number): Image {
  let image = images.get(context)
  if (!image || image.width !== width || image.height !== height) {
    image = context.createImageData(width, height)
    images.set(context, image)
  }
  return image
}
