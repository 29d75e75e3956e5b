import { useState } from 'react'
import { useResource } from '@/hooks/use-resource'
import { searchHospitals, type HospitalPage } from '@/services/claims'

export type HospitalSearchState =
  | { status: 'loading' }
  | { status: 'ready'; items: HospitalPage['items']; total: number }
  | { status: 'error'; message: string }

/** Hospitals matching the typed words, asked 300 ms after typing stops, while the picker is open. */
export function useHospitalSearch(open: boolean) {
  const [keyword, setKeyword] = useState('')
  const resource = useResource(open ? keyword : null, () => searchHospitals(keyword), {
    delayMs: 300,
    errorMessage: '医院列表加载失败',
  })
  const state: HospitalSearchState =
    resource.status === 'ready'
      ? { status: 'ready', items: resource.data.items, total: resource.data.total }
      : resource.status === 'error'
        ? { status: 'error', message: resource.message }
        : { status: 'loading' }
  return { keyword, setKeyword, state, retry: () => void resource.reload() }
}
