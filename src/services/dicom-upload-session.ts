import type { PickedFile } from '@/platform/file-picker'
import { describeError } from './api'
import {
  cancelDicomUpload,
  finishDicomUpload,
  getDicomUpload,
  startDicomUpload,
  uploadDicomChunk,
  type UploadState,
} from './dicom-upload'
import { HttpError, NetworkError } from './http'

/**
 * One zip (or several DICOM files joined, see platform/file-picker.ts) from the phone to a study: start (reserves the quota), send the chunks in order, finish,
 * then poll until the server has parsed it. A dropped connection does not restart the upload: after
 * a failed chunk the session waits, asks the server how far it got (receivedBytes) and continues
 * from there. Cancel stops between chunks and deletes the upload on the server (its quota comes back).
 */

export type UploadProgress =
  | { phase: 'starting' }
  | { phase: 'uploading'; uploadId: string; sent: number; total: number; retrying: boolean }
  | { phase: 'processing'; uploadId: string }
  | { phase: 'ready'; state: UploadState }
  | { phase: 'failed'; message: string; uploadId?: string }
  | { phase: 'cancelled' }

export type UploadOutcome = Extract<UploadProgress, { phase: 'ready' | 'failed' | 'cancelled' }>

export interface UploadControl {
  cancelled: boolean
}

export interface UploadSessionDeps {
  start: typeof startDicomUpload
  chunk: typeof uploadDicomChunk
  get: typeof getDicomUpload
  finish: typeof finishDicomUpload
  cancel: typeof cancelDicomUpload
  sleep: (ms: number) => Promise<void>
}

export const UPLOAD_SESSION = {
  /** Tries per chunk before giving up (each after asking the server where to go on). */
  chunkAttempts: 6,
  /** Wait before retry n: 1 s, 2 s, 4 s… at most 15 s. */
  backoffMs: (attempt: number) => Math.min(15_000, 1000 * 2 ** (attempt - 1)),
  pollMs: 1000,
  /** How long 解析中 is polled before the page says to come back later. */
  pollLimitMs: 10 * 60 * 1000,
} as const

export const SESSION_MESSAGES = {
  network: '网络不稳定，上传中断，请检查网络后重试',
  stillProcessing: '影像仍在解析中，请稍后在列表中查看',
} as const

const defaultDeps: UploadSessionDeps = {
  start: startDicomUpload,
  chunk: uploadDicomChunk,
  get: getDicomUpload,
  finish: finishDicomUpload,
  cancel: cancelDicomUpload,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

/** Errors after which sending again cannot help (a refusal the person must act on). */
function isFinalRefusal(error: unknown): boolean {
  if (!(error instanceof HttpError)) return false
  const status = error.statusCode
  // 409: the server is elsewhere in the file (resume there); 408/429/5xx: try again.
  return status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429
}

export async function runZipUpload(
  file: PickedFile,
  onProgress: (progress: UploadProgress) => void,
  control: UploadControl,
  deps: UploadSessionDeps = defaultDeps,
): Promise<UploadOutcome> {
  const report = <P extends UploadProgress>(progress: P): P => {
    onProgress(progress)
    return progress
  }
  report({ phase: 'starting' })
  let state: UploadState
  try {
    state = await deps.start(file.name, file.size, file.files)
  } catch (error) {
    return report({ phase: 'failed', message: describeError(error, '无法开始上传，请稍后重试') })
  }
  const { uploadId } = state
  const total = file.size
  let offset = state.receivedBytes
  let attempt = 0

  const cancel = async (): Promise<UploadOutcome> => {
    await deps.cancel(uploadId).catch(() => undefined)
    return report({ phase: 'cancelled' })
  }

  while (offset < total) {
    report({ phase: 'uploading', uploadId, sent: offset, total, retrying: attempt > 0 })
    if (control.cancelled) return cancel()
    const end = Math.min(offset + state.chunkSize, total)
    try {
      const part = await file.slice(offset, end)
      try {
        state = await deps.chunk(uploadId, offset, part.filePath)
      } finally {
        part.release()
      }
      offset = state.receivedBytes
      attempt = 0
    } catch (error) {
      if (isFinalRefusal(error)) {
        return report({ phase: 'failed', uploadId, message: describeError(error) })
      }
      attempt += 1
      if (attempt >= UPLOAD_SESSION.chunkAttempts) {
        return report({
          phase: 'failed',
          uploadId,
          message: error instanceof NetworkError ? SESSION_MESSAGES.network : describeError(error),
        })
      }
      report({ phase: 'uploading', uploadId, sent: offset, total, retrying: true })
      await deps.sleep(UPLOAD_SESSION.backoffMs(attempt))
      if (control.cancelled) return cancel()
      // Where the server is: the chunk may have arrived although its answer did not.
      try {
        state = await deps.get(uploadId)
        offset = state.receivedBytes
      } catch {
        // Still offline: the next round tries the same chunk again.
      }
    }
  }
  if (control.cancelled) return cancel()

  try {
    state = await deps.finish(uploadId)
  } catch (error) {
    return report({ phase: 'failed', uploadId, message: describeError(error) })
  }
  report({ phase: 'processing', uploadId })
  let waited = 0
  while (state.status !== 'ready' && state.status !== 'failed') {
    if (waited >= UPLOAD_SESSION.pollLimitMs) {
      return report({ phase: 'failed', uploadId, message: SESSION_MESSAGES.stillProcessing })
    }
    await deps.sleep(UPLOAD_SESSION.pollMs)
    waited += UPLOAD_SESSION.pollMs
    try {
      state = await deps.get(uploadId)
    } catch {
      // A poll lost to the network is just tried again.
    }
  }
  if (state.status === 'failed') {
    return report({ phase: 'failed', uploadId, message: state.message ?? '解析失败' })
  }
  return report({ phase: 'ready', state })
}
