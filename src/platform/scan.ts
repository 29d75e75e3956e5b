import Taro from '@tarojs/taro'

/**
 * Reading QR codes on each platform.
 *
 * - weapp: WeChat's own scanner (`Taro.scanCode`), which also offers the album.
 * - H5: no native scanner. A chosen or freshly taken photo is decoded with jsQR, and where the
 *   browser can open the camera (getUserMedia needs HTTPS or localhost) a live preview is decoded
 *   frame by frame. jsQR is loaded on first use, so pages that never scan do not download it.
 */

export type ScanOutcome =
  | { status: 'ok'; content: string }
  /** The person closed the scanner or the picker. */
  | { status: 'cancelled' }
  /** A picture was read but holds no QR code the decoder can find. */
  | { status: 'no-code' }
  | { status: 'failed'; message: string }

export interface ScanCapabilities {
  /** A system scanner with its own camera UI (weapp). */
  nativeScanner: boolean
  /** Taking or choosing a photo and decoding it in the page (H5). */
  photo: boolean
  /** A live camera preview inside the page (H5 with getUserMedia). */
  liveCamera: boolean
}

export const SCAN_MESSAGES = {
  failed: '扫码失败，请重试',
  cameraDenied: '无法打开摄像头，请允许使用摄像头或改用拍照/相册',
  imageUnreadable: '图片无法读取，请换一张',
} as const

function hasGetUserMedia(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    typeof navigator.mediaDevices === 'object' &&
    navigator.mediaDevices !== null &&
    typeof navigator.mediaDevices.getUserMedia === 'function'
  )
}

export function scanCapabilities(): ScanCapabilities {
  if (process.env.TARO_ENV === 'weapp') {
    return { nativeScanner: true, photo: false, liveCamera: false }
  }
  return { nativeScanner: false, photo: true, liveCamera: hasGetUserMedia() }
}

function errMsgOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'errMsg' in error) {
    const { errMsg } = error as { errMsg: unknown }
    if (typeof errMsg === 'string') return errMsg
  }
  return error instanceof Error ? error.message : String(error)
}

const isCancel = (error: unknown) => /cancel/i.test(errMsgOf(error))

/** weapp: WeChat's scanner; `camera` hides its album button. */
export async function scanWithNativeScanner(
  source: 'any' | 'camera' = 'any',
): Promise<ScanOutcome> {
  if (process.env.TARO_ENV !== 'weapp') return { status: 'failed', message: SCAN_MESSAGES.failed }
  try {
    const result = await Taro.scanCode({
      onlyFromCamera: source === 'camera',
      scanType: ['qrCode'],
    })
    return { status: 'ok', content: result.result }
  } catch (error) {
    if (isCancel(error)) return { status: 'cancelled' }
    return { status: 'failed', message: SCAN_MESSAGES.failed }
  }
}

type JsQr = typeof import('jsqr').default

let decoder: Promise<JsQr> | null = null

function loadDecoder(): Promise<JsQr> {
  decoder ??= import('jsqr').then((module) => module.default)
  return decoder
}

/** Largest side a photo is scaled to before decoding: phone photos are 4000 px, QR codes are big. */
const DECODE_SIDES = [1200, 640] as const

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image()
    image.onload = () => resolve(image)
    image.onerror = () => reject(new Error('image failed to load'))
    image.src = src
  })
}

function pixelsOf(
  source: CanvasImageSource,
  width: number,
  height: number,
  maxSide: number,
): ImageData | null {
  const scale = Math.min(1, maxSide / Math.max(width, height))
  const canvas = document.createElement('canvas')
  canvas.width = Math.max(1, Math.round(width * scale))
  canvas.height = Math.max(1, Math.round(height * scale))
  const context = canvas.getContext('2d', { willReadFrequently: true })
  if (!context) return null
  context.drawImage(source, 0, 0, canvas.width, canvas.height)
  return context.getImageData(0, 0, canvas.width, canvas.height)
}

/** H5: the text of the first QR code in an image (blob URL, data URL or address), or null. */
export async function decodeQrImage(src: string): Promise<string | null> {
  const [jsQR, image] = await Promise.all([loadDecoder(), loadImage(src)])
  for (const side of DECODE_SIDES) {
    const pixels = pixelsOf(image, image.naturalWidth, image.naturalHeight, side)
    if (!pixels) return null
    const code = jsQR(pixels.data, pixels.width, pixels.height, {
      inversionAttempts: 'attemptBoth',
    })
    if (code && code.data !== '') return code.data
  }
  return null
}

/** Takes (`camera`) or chooses (`album`) one photo and reads the QR code in it. */
export async function scanFromPhoto(source: 'camera' | 'album'): Promise<ScanOutcome> {
  if (process.env.TARO_ENV === 'weapp')
    return scanWithNativeScanner(source === 'camera' ? 'camera' : 'any')
  let path: string | undefined
  try {
    const chosen = await Taro.chooseImage({
      count: 1,
      sourceType: [source],
      sizeType: ['original'],
    })
    path = chosen.tempFilePaths[0]
  } catch (error) {
    if (isCancel(error)) return { status: 'cancelled' }
    return { status: 'failed', message: SCAN_MESSAGES.imageUnreadable }
  }
  if (path === undefined) return { status: 'cancelled' }
  try {
    const content = await decodeQrImage(path)
    return content === null ? { status: 'no-code' } : { status: 'ok', content }
  } catch {
    return { status: 'failed', message: SCAN_MESSAGES.imageUnreadable }
  }
}

export interface LiveScan {
  /** Stops the camera and removes the preview; safe to call twice. */
  stop: () => void
}

export interface LiveScanHandlers {
  onCode: (content: string) => void
  onError: (message: string) => void
}

/** How often a preview frame is decoded; every frame would keep a phone's CPU busy for nothing. */
const LIVE_DECODE_INTERVAL_MS = 250

/**
 * H5: opens the rear camera inside the element with id `containerId` and reports the first QR
 * code seen. Stops by itself after a code; the page stops it when leaving.
 */
export async function startLiveScan(
  containerId: string,
  handlers: LiveScanHandlers,
): Promise<LiveScan> {
  const container = typeof document === 'undefined' ? null : document.getElementById(containerId)
  if (process.env.TARO_ENV === 'weapp' || !hasGetUserMedia() || !container) {
    handlers.onError(SCAN_MESSAGES.cameraDenied)
    return { stop: () => undefined }
  }
  let stopped = false
  let stream: MediaStream | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  const video = document.createElement('video')
  video.setAttribute('playsinline', 'true')
  video.muted = true
  video.className = 'live-scan__video'
  Object.assign(video.style, { width: '100%', height: '100%', objectFit: 'cover' })

  const stop = () => {
    stopped = true
    if (timer !== undefined) clearTimeout(timer)
    stream?.getTracks().forEach((track) => track.stop())
    video.remove()
  }

  try {
    const [jsQR, media] = await Promise.all([
      loadDecoder(),
      navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'environment' },
        audio: false,
      }),
    ])
    stream = media
    if (stopped) {
      stop()
      return { stop }
    }
    video.srcObject = media
    container.appendChild(video)
    await video.play()
    const tick = () => {
      if (stopped) return
      if (video.videoWidth > 0) {
        const pixels = pixelsOf(video, video.videoWidth, video.videoHeight, 640)
        const code = pixels
          ? jsQR(pixels.data, pixels.width, pixels.height, { inversionAttempts: 'dontInvert' })
          : null
        if (code && code.data !== '') {
          stop()
          handlers.onCode(code.data)
          return
        }
      }
      timer = setTimeout(tick, LIVE_DECODE_INTERVAL_MS)
    }
    tick()
  } catch {
    stop()
    handlers.onError(SCAN_MESSAGES.cameraDenied)
  }
  return { stop }
}
