import { useCallback, useEffect, useRef, useState } from 'react'
import { describeError } from '@/services/api'
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
  const [state, setState] = useState<FilmReportState>(
    plausible(code) ? { status: 'loading' } : { status: 'invalid' },
  )
  const [extras, setExtras] = useState<FilmExtras>(NO_EXTRAS)
  const alive = useRef(true)
  const claimed = useRef(false)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  const load = useCallback(async () => {
    if (!plausible(code)) return setState({ status: 'invalid' })
    setState({ status: 'loading' })
    // Alongside the report, quietly: a failure leaves the extras out, not the page in error.
    void Promise.allSettled([
      getScanReportCount(code, { loading: false, quietOffline: true }),
      listScanRooms(code, { loading: false, quietOffline: true }),
    ]).then(([count, rooms]) => {
      if (!alive.current) return
      setExtras({
        count: count.status === 'fulfilled' ? count.value : null,
        rooms: rooms.status === 'fulfilled' ? rooms.value : null,
      })
    })
    try {
      const scan = await getScanReportInfo(code)
      if (!scan.mine) {
        if (alive.current) setState({ status: 'locked', scan })
        return
      }
      const report = scan.reportId ? await getClaimedReport(scan.reportId) : null
      if (alive.current) setState({ status: 'ready', scan, report, justClaimed: claimed.current })
    } catch (error) {
      if (alive.current)
        setState({ status: 'error', message: describeError(error, '报告加载失败，请重试') })
    }
  }, [code])

  useEffect(() => {
    void load()
  }, [load])

  const onClaimed = useCallback(
    (_exam: ClaimedExam) => {
      claimed.current = true
      void load()
    },
    [load],
  )
  const ticket = state.status === 'locked' ? state.scan.ticket : null
  const proof = useClaimCode(ticket, onClaimed)

  return { state, extras, proof, retry: () => void load() }
}

export type FilmReportView = ReturnType<typeof useFilmReport>
