import { useEffect, useState } from 'react'
import type { ReauthProof } from '@/components/reauth-sheet'
import { type Resource, useResource } from '@/hooks/use-resource'
import { describeError } from '@/services/api'
import {
  type DataExportOverview,
  listDataExports,
  requestDataExport,
  sendExportCode,
} from '@/services/data-export'

/** While an export is 生成中 the page asks again this often, so 已发送到手机 appears by itself. */
export const POLL_MS = 3000

export interface DataExportModel {
  overview: Resource<DataExportOverview>
  /** Whose data: the account itself or a member it manages (an id of overview.people). */
  personId: string | null
  setPersonId: (id: string) => void
  confirming: boolean
  openConfirm: () => void
  closeConfirm: () => void
  busy: boolean
  error: string | null
  submit: (proof: ReauthProof) => Promise<boolean>
  sendCode: typeof sendExportCode
}

/**
 * 导出我的数据: for whom, then 申请导出 behind the password-or-code sheet; the requests' states
 * follow (生成中 → 已发送到手机 → 已下载 / 已过期), polled while one is being built.
 */
export function useDataExport(): DataExportModel {
  const overview = useResource('data-exports', () => listDataExports({ loading: false }))
  const [personId, setPersonId] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const data = overview.status === 'ready' ? overview.data : null
  const building = data?.items.some((item) => item.state === 'building') ?? false
  const { reload } = overview

  useEffect(() => {
    if (!building) return
    const timer = setInterval(() => void reload(), POLL_MS)
    return () => clearInterval(timer)
  }, [building, reload])

  const chosen = personId ?? data?.people[0]?.id ?? null
  return {
    overview,
    personId: chosen,
    setPersonId,
    confirming,
    openConfirm: () => {
      setError(null)
      setConfirming(true)
    },
    closeConfirm: () => setConfirming(false),
    busy,
    error,
    sendCode: sendExportCode,
    submit: async (proof) => {
      setBusy(true)
      setError(null)
      try {
        await requestDataExport({
          ...(chosen && data && chosen !== data.people[0]?.id ? { personId: chosen } : {}),
          ...('password' in proof ? { password: proof.password } : { smsCode: proof.smsCode }),
        })
        setConfirming(false)
        await reload()
        return true
      } catch (failure) {
        setError(describeError(failure))
        return false
      } finally {
        setBusy(false)
      }
    },
  }
}
