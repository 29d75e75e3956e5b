import { useCallback, useRef } from 'react'
import { useResource } from '@/hooks/use-resource'
import {
  getClaimedReport,
  getScanReportCount,
  getScanReportInfo,
  listScanRooms,
  type ClaimedExam,
  type ReportDetail,
  type ScanResult,
} from '@/services/claims'
import { useClaimCode } from './use-claim-code'

export type FilmReportState =
  | { status: 'loading' }
  | { status: 'invalid' }
  | { status: 'error'; message: string }
  /** Not the caller's yet: who issued it, and the proof step (when the hospital recorded a phone). */
  | { status: 'locked'; scan: ScanResult }
  /** The caller's: the report (null while the hospital has not sent one). */
  | { status: 'ready'; scan: ScanResult; report: ReportDetail | null; justClaimed: boolean }

/**
 * What the scan service adds about the code's hospital and exam: how many reports it has (and how
 * many are final) and the hospital's rooms. null while loading or when unavailable: extras never
 * stand in the way of the report.
 */
export interface FilmExtras {
  count: { total: number; final: number } | null
  rooms: { id: string; name: string }[] | null
}

const NO_EXTRAS: FilmExtras = { count: null, rooms: null }

/** Film codes are URL-safe base64 parts; anything else in the link is not one of ours. */
function plausible(code: string | undefined): code is string {
  return code !== undefined && /^[\w.-]{10,300}$/.test(code)
}

/**
 * detail2: the report behind a scanned film-bag code. Whoever holds the code sees which hospital
 * issued it and what kind of exam it is; the report itself opens once the exam is theirs (claimed
 * now with the SMS proof, or earlier, or matched by their bound ID card).
 */
export function useFilmReport(code: string | undefined) {
  const claimed = useRef(false)
  const key = plausible(code) ? code : null
  const scan = useResource<Extract<FilmReportState, { status: 'locked' | 'ready' }>>(
    key,
    async () => {
      const scan = await getScanReportInfo(key ?? '')
      if (!scan.mine) return { status: 'locked', scan }
      const report = scan.reportId ? await getClaimedReport(scan.reportId) : null
      return { status: 'ready', scan, report, justClaimed: claimed.current }
    },
    { errorMessage: '报告加载失败，请重试' },
  )
  // Alongside the report, quietly: a failure leaves the extras out, not the page in error.
  const extras = useResource(key, async () => {
    const [count, rooms] = await Promise.allSettled([
      getScanReportCount(key ?? '', { loading: false, quietOffline: true }),
      listScanRooms(key ?? '', { loading: false, quietOffline: true }),
    ])
    return {
      count: count.status === 'fulfilled' ? count.value : null,
      rooms: rooms.status === 'fulfilled' ? rooms.value : null,
    }
  })

  const { restart: restartScan } = scan
  const { reload: reloadExtras } = extras
  const load = useCallback(() => {
    void reloadExtras()
    void restartScan()
  }, [reloadExtras, restartScan])

  const onClaimed = useCallback(
    (_exam: ClaimedExam) => {
      claimed.current = true
      load()
    },
    [load],
  )
  const state: FilmReportState =
    scan.status === 'idle'
      ? { status: 'invalid' }
      : scan.status === 'ready'
        ? scan.data
        : scan.status === 'error'
          ? { status: 'error', message: scan.message }
          : { status: 'loading' }
  const ticket = state.status === 'locked' ? state.scan.ticket : null
  const proof = useClaimCode(ticket, onClaimed)

  return {
    state,
    extras: extras.status === 'ready' ? extras.data : NO_EXTRAS,
    proof,
    retry: load,
  }
}

export type FilmReportView = ReturnType<typeof useFilmReport>
