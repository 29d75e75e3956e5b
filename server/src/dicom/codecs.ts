// The root tsconfig also checks this file (through bench/dicom.ts) but does not include server/, so
// it would not see the codec declarations without this reference; an import cannot name ambient modules.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./codec-modules.d.ts" />
/**
 * The WASM codecs, loaded lazily by their package `exports` names (toolchain.md) and only once:
 * instantiating one costs tens of milliseconds and a few MB, which a server that never meets a
 * JPEG 2000 file should not pay.
 */
import type { Decoder as LosslessDecoder } from 'jpeg-lossless-decoder-js'

export interface DecodedCodecFrame {
  width: number
  height: number
  bitsPerSample: number
  componentCount: number
  /** Samples as bytes, little-endian for 16-bit, interleaved for colour. A copy: WASM memory is reused. */
  bytes: Uint8Array
}

/** Emscripten prints codec chatter ([INFO] per J2K tile) to stdout, which is the server's log stream. */
const QUIET = { print: () => {}, printErr: () => {} }

type Factory<T> = () => Promise<T>

function once<T>(load: Factory<T>): Factory<T> {
  let pending: Promise<T> | undefined
  return () => {
    // A failed load is retried next time rather than cached as a permanent failure.
    pending ??= load().catch((error: unknown) => {
      pending = undefined
      throw error
    })
    return pending
  }
}

const libjpegTurbo = once(async () =>
  (await import('@cornerstonejs/codec-libjpeg-turbo-8bit/wasmjs')).default(QUIET),
)
const charls = once(async () =>
  (await import('@cornerstonejs/codec-charls/decodewasmjs')).default(QUIET),
)
const openjpeg = once(async () =>
  (await import('@cornerstonejs/codec-openjpeg/decodewasmjs')).default(QUIET),
)
const jpegLossless = once(async () => (await import('jpeg-lossless-decoder-js')).Decoder)

function runWasm(decoder: WasmDecoder, encoded: Uint8Array): DecodedCodecFrame {
  try {
    decoder.getEncodedBuffer(encoded.length).set(encoded)
    decoder.decode()
    const info = decoder.getFrameInfo()
    return {
      width: info.width,
      height: info.height,
      bitsPerSample: info.bitsPerSample,
      componentCount: info.componentCount,
      // Copy out of WASM memory (reused by the next call) into a plain Uint8Array (libjpeg answers
      // a Uint8ClampedArray).
      bytes: new Uint8Array(decoder.getDecodedBuffer()),
    }
  } finally {
    decoder.delete()
  }
}

export async function decodeJpeg8(encoded: Uint8Array): Promise<DecodedCodecFrame> {
  const codec = await libjpegTurbo()
  return runWasm(new codec.JPEGDecoder(), encoded)
}

export async function decodeJpegLs(encoded: Uint8Array): Promise<DecodedCodecFrame> {
  const codec = await charls()
  return runWasm(new codec.JpegLSDecoder(), encoded)
}

export async function decodeJpeg2000(encoded: Uint8Array): Promise<DecodedCodecFrame> {
  const codec = await openjpeg()
  return runWasm(new codec.J2KDecoder(), encoded)
}

/** JPEG lossless (processes 14, any selection value); the frame's size comes from the DICOM header. */
export async function decodeJpegLossless(
  encoded: Uint8Array,
  expectedBytes: number,
): Promise<Uint8Array> {
  const Decoder = await jpegLossless()
  const decoder: LosslessDecoder = new Decoder()
  // A copy with its own ArrayBuffer: the decoder reads `buffer` from offset 0, and a Buffer's
  // slice would share the whole file's memory.
  const copy = new Uint8Array(encoded)
  const out = decoder.decompress(copy.buffer, 0, copy.length)
  // 16-bit samples come from a host-order typed array: little-endian wherever Node runs.
  const bytes = new Uint8Array(out)
  if (bytes.length < expectedBytes)
    throw new Error(`JPEG lossless gave ${bytes.length} bytes, need ${expectedBytes}`)
  return bytes
}

/**
 * The WASM encoder writes the JPEG into a buffer the size of the raw image: a JPEG larger than its
 * pixels (tiny images, whose headers alone exceed them; noise at quality 100) overflows it and
 * corrupts the module for the rest of the process. Measured: 64² noise at quality 90 gives 78 % of
 * the raw size, 128² at 95 gives 86 %, 128² at 100 overflows. So images below 64² are refused
 * (callers use PNG or enlarge) and quality is capped at 90.
 */
export const JPEG_MIN_PIXELS = 64 * 64
export const JPEG_MAX_QUALITY = 90

export class JpegInputTooSmallError extends RangeError {
  override name = 'JpegInputTooSmallError'
}

/** Baseline JPEG encoder for /rendered, /thumbnail and photos (8-bit grey or RGB). */
/**
 * Instantiates the JPEG encoder ahead of its first use (thumbnails after an ingest), so the first
 * render does not pay for it. Repeated calls cost nothing.
 */
export async function loadJpegEncoder(): Promise<void> {
  await libjpegTurbo()
}

export async function encodeJpeg(
  pixels: Uint8Array,
  width: number,
  height: number,
  componentCount: 1 | 3,
  quality: number,
): Promise<Uint8Array> {
  if (width * height < JPEG_MIN_PIXELS) {
    throw new JpegInputTooSmallError(
      `JPEG 编码需要至少 ${JPEG_MIN_PIXELS} 个像素，收到 ${width}×${height}`,
    )
  }
  quality = Math.max(1, Math.min(JPEG_MAX_QUALITY, Math.round(quality)))
  const codec = await libjpegTurbo()
  const encoder = new codec.JPEGEncoder()
  try {
    encoder
      .getDecodedBuffer({ width, height, bitsPerSample: 8, componentCount, isSigned: false })
      .set(pixels)
    // One argument: the embind binding coerces a leading boolean into quality 0 without complaint.
    encoder.setQuality(quality)
    encoder.encode()
    return new Uint8Array(encoder.getEncodedBuffer())
  } finally {
    encoder.delete()
  }
}
