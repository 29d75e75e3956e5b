import { useResource, type Resource } from '@/hooks/use-resource'
import { getServerVersion } from '@/services/profile'

/** The product version, as the server that serves this build reports it (package.json's). */
export function useAppVersion(): Resource<string> {
  // Quiet: 关于我们 must open offline too; the version then reads 未知.
  return useResource('version', () =>
    getServerVersion({
      loading: false,
      quietOffline: true,
      hooks: { response: (response) => (response.statusCode === 200 ? undefined : false) },
    }),
  )
}
