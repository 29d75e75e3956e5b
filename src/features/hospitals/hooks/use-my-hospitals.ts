import { useResource } from '@/hooks/use-resource'
import { listMyHospitals, type MyHospital } from '@/services/records'

/**
 * 数据切换中心's 我的医院: the hospitals I have records at, once signed in. null while unknown (signed
 * out or loading); a failure shows none rather than an error over the whole page.
 */
export function useMyHospitals(signedIn: boolean): MyHospital[] | null {
  const mine = useResource(signedIn ? 'mine' : null, () => listMyHospitals())
  if (mine.status === 'ready') return mine.data
  return mine.status === 'error' ? [] : null
}
