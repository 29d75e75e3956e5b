import { useEffect, useRef, useState } from 'react'
import { describeError } from '@/services/api'
import { searchHospitals, type HospitalPage } from '@/services/claims'

export type HospitalSearchState =
  | { status: 'loading' }
  | { status: 'ready'; items: HospitalPage['items']; total: number }
  | { status: 'error'; message: string }

/** Hospitals matching the typed words, asked 300 ms after typing stops, while the picker is open. */
export function useHospitalSearch(open: boolean) {
  const [keyword, setKeyword] = useState('')
  const [state, setState] = useState<HospitalSearchState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const latest = useRef(0)

  useEffect(() => {
    if (!open) return
    const mine = ++latest.current
    setState({ status: 'loading' })
    const timer = setTimeout(() => {
      searchHospitals(keyword).then(
        (page) => {
          if (mine === latest.current)
            setState({ status: 'ready', items: page.items, total: page.total })
        },
        (error: unknown) => {
          if (mine === latest.current)
            setState({ status: 'error', message: describeError(error, '医院列表加载失败') })
        },
      )
    }, 300)
    return () => clearTimeout(timer)
  }, [open, keyword, attempt])

  return { keyword, setKeyword, state, retry: () => setAttempt((n) => n + 1) }
}
