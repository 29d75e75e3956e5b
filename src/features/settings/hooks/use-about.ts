import { useEffect, useState } from 'react'
import { getServerVersion } from '@/services/profile'

export type VersionState =
  { status: 'loading' } | { status: 'ready'; version: string } | { status: 'unknown' }

/** The product version, as the server that serves this build reports it (package.json's). */
export function useAppVersion(): VersionState {
  const [state, setState] = useState<VersionState>({ status: 'loading' })
  useEffect(() => {
    let alive = true
    // Quiet: 关于我们 must open offline too; the version then reads 未知.
    getServerVersion({
      loading: false,
      quietOffline: true,
      hooks: { response: (response) => (response.statusCode === 200 ? undefined : false) },
    }).then(
      (version) => alive && setState({ status: 'ready', version }),
      () => alive && setState({ status: 'unknown' }),
    )
    return () => {
      alive = false
    }
  }, [])
  return state
}
