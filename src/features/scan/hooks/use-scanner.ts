import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useDidHide } from '@tarojs/taro'
import {
  scanCapabilities,
  scanFromPhoto,
  scanWithNativeScanner,
  startLiveScan,
  type LiveScan,
  type ScanCapabilities,
  type ScanOutcome,
} from '@/platform/scan'
import { redirect } from '@/services/navigate'
import { describeError, scanQrLogin } from '@/services/profile'
import { getAccessToken } from '@/stores/session-store'
import { UNKNOWN_CODE_MESSAGE, parseScanned } from '../qr-content'

export const LIVE_PREVIEW_ID = 'scan-live-preview'

export interface ScannerView {
  capabilities: ScanCapabilities
  /** Whether the in-page camera preview is running. */
  live: boolean
  /** What went wrong with the last attempt, in Chinese; null when nothing to say. */
  message: string | null
  scanNative: () => void
  scanPhoto: (source: 'camera' | 'album') => void
  startLive: () => void
  stopLive: () => void
}

export interface ScannerOptions {
  /** Open the scanner (weapp) or the camera preview (H5) as soon as the page shows. */
  autoStart?: boolean
}

/** The scan pages' logic: read a code by whatever the platform offers, then act on it. */
export function useScanner({ autoStart = false }: ScannerOptions = {}): ScannerView {
  const capabilities = useMemo(() => scanCapabilities(), [])
  const [live, setLive] = useState(false)
  const [message, setMessage] = useState<string | null>(null)
  const liveScan = useRef<LiveScan | null>(null)
  const alive = useRef(true)

  const stopLive = useCallback(() => {
    liveScan.current?.stop()
    liveScan.current = null
    if (alive.current) setLive(false)
  }, [])

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
      liveScan.current?.stop()
      liveScan.current = null
    }
  }, [])

  useDidHide(stopLive)

  const handleContent = useCallback((content: string) => {
    const code = parseScanned(content)
    if (code.kind === 'film') {
      // The report page shows who issued it and asks for the SMS proof itself.
      setMessage(null)
      void redirect('filmReport', { code: code.code })
      return
    }
    if (code.kind === 'room') {
      // 院内报告 asks to log in itself (a phone camera opens the same link signed out).
      setMessage(null)
      void redirect('reportIn', {
        hospitalId: code.hospitalId,
        ...(code.roomId ? { roomId: code.roomId } : {}),
      })
      return
    }
    if (code.kind === 'login') {
      setMessage(null)
      const open = () => void redirect('scanLogin', { id: code.id })
      // Only the scanner registers a scan: its answer holds the confirm ticket (in memory), so a
      // link to the confirm page cannot confirm. Signed out, the confirm page asks to log in first.
      if (getAccessToken() === null) return open()
      scanQrLogin(code.id).then(open, (error: unknown) => {
        if (alive.current) setMessage(describeError(error))
      })
      return
    }
    setMessage(UNKNOWN_CODE_MESSAGE)
  }, [])

  const handleOutcome = useCallback(
    (outcome: ScanOutcome) => {
      if (!alive.current) return
      if (outcome.status === 'ok') handleContent(outcome.content)
      else if (outcome.status === 'no-code') setMessage('未在图片中找到二维码，请换一张清晰的照片')
      else if (outcome.status === 'failed') setMessage(outcome.message)
    },
    [handleContent],
  )

  const scanNative = useCallback(() => {
    setMessage(null)
    void scanWithNativeScanner().then(handleOutcome)
  }, [handleOutcome])

  const scanPhoto = useCallback(
    (source: 'camera' | 'album') => {
      setMessage(null)
      stopLive()
      void scanFromPhoto(source).then(handleOutcome)
    },
    [handleOutcome, stopLive],
  )

  const startLive = useCallback(() => {
    if (liveScan.current) return
    setMessage(null)
    setLive(true)
    void startLiveScan(LIVE_PREVIEW_ID, {
      onCode: (content) => {
        liveScan.current = null
        if (!alive.current) return
        setLive(false)
        handleContent(content)
      },
      onError: (error) => {
        liveScan.current = null
        if (!alive.current) return
        setLive(false)
        setMessage(error)
      },
    }).then((scan) => {
      // The page may have closed or the scan ended while the camera was starting.
      if (!alive.current) scan.stop()
      else if (liveScan.current === null) liveScan.current = scan
    })
  }, [handleContent])

  const started = useRef(false)
  useEffect(() => {
    if (!autoStart || started.current) return
    started.current = true
    if (capabilities.nativeScanner) scanNative()
    else if (capabilities.liveCamera) startLive()
  }, [autoStart, capabilities, scanNative, startLive])

  return { capabilities, live, message, scanNative, scanPhoto, startLive, stopLive }
}
