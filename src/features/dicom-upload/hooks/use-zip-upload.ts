import { useCallback, useEffect, useRef, useState } from 'react'
import { pickDicomFiles, pickZipFile } from '@/platform/file-picker'
import { showToast } from '@/platform/ui'
import { runZipUpload, type UploadProgress } from '@/services/dicom-upload-session'

/** What the person chose to send: a zip, several DICOM files, or a folder of them (H5). */
export type UploadSource = 'zip' | 'files' | 'folder'

export interface ZipUpload {
  /** null before the first upload (and after the person dismissed the last outcome). */
  progress: UploadProgress | null
  fileName: string | null
  busy: boolean
  /**
   * Opens the platform's picker for `source` (default a zip), then uploads what was chosen. Call it
   * from the tap itself: a browser opens a file dialog only for a user gesture.
   */
  pickAndUpload: (source?: UploadSource) => Promise<void>
  /** Stops between chunks and deletes the upload on the server. */
  cancel: () => void
  dismiss: () => void
}

/**
 * The 上传DICOM flow of index-ys: pick a zip (or several DICOM files), send it in chunks with
 * progress, wait while it is parsed. `onSettled` runs when it ends either way (the page refreshes its list).
 */
export function useZipUpload(onSettled: () => void): ZipUpload {
  const [progress, setProgress] = useState<UploadProgress | null>(null)
  const [fileName, setFileName] = useState<string | null>(null)
  const control = useRef({ cancelled: false })
  const alive = useRef(true)
  const settledRef = useRef(onSettled)
  settledRef.current = onSettled
  useEffect(
    () => () => {
      alive.current = false
      // Leaving the page cancels an upload still sending (it could not be resumed from here).
      control.current.cancelled = true
    },
    [],
  )

  const busy =
    progress !== null &&
    (progress.phase === 'starting' ||
      progress.phase === 'uploading' ||
      progress.phase === 'processing')

  const pickAndUpload = useCallback(
    async (source: UploadSource = 'zip') => {
      if (busy) return
      let file
      try {
        file =
          source === 'zip'
            ? await pickZipFile()
            : await pickDicomFiles({ folder: source === 'folder' })
      } catch (error) {
        showToast(error instanceof Error ? error.message : '无法读取所选文件，请重新选择')
        return
      }
      if (!file) return
      if (!file.files && !/\.zip$/i.test(file.name)) {
        showToast('请选择 zip 格式的压缩包')
        return
      }
      control.current = { cancelled: false }
      setFileName(file.name)
      await runZipUpload(
        file,
        (next) => {
          if (alive.current) setProgress(next)
        },
        control.current,
      )
      if (alive.current) settledRef.current()
    },
    [busy],
  )

  const cancel = useCallback(() => {
    control.current.cancelled = true
  }, [])

  const dismiss = useCallback(() => {
    setProgress(null)
    setFileName(null)
  }, [])

  return { progress, fileName, busy, pickAndUpload, cancel, dismiss }
}
