import { useCallback, useEffect, useRef, useState } from 'react'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import {
  listMyHospitals,
  listPersonalReports,
  markAllReportsRead,
  type MyHospital,
  type ReportListItem,
} from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { chosenHospitalFor } from '@/stores/hospital-store'
import { forPerson, useCurrentPerson } from '@/stores/person-store'
import { dateRangeOf, type DatePreset } from '../filters'

export interface ReportFilters {
  /** '' = every hospital. */
  hospitalId: string
  date: DatePreset
  /** Show private reports too (they still need the password to open). */
  includePrivate: boolean
  unreadOnly: boolean
}

export interface Reports {
  list: PagedList<ReportListItem>
  /** Unread reports matching the hospital and date filters (the badge). */
  unread: number
  hospitals: MyHospital[]
  filters: ReportFilters
  setFilters: (change: Partial<ReportFilters>) => void
  markAllRead: () => Promise<void>
  /** 当前就诊人 when a family member; 全部已读 marks only the caller's own reports, so it is hidden then. */
  personId?: string
}

/** 我的报告: newest first, unread marked, filtered by hospital and date, of 当前就诊人. */
export function useReports(initial: Partial<ReportFilters> = {}): Reports {
  const personId = useCurrentPerson()?.personId
  const [filters, setFiltersState] = useState<ReportFilters>(() => ({
    // 数据切换中心's hospital (remembered) is where the list starts.
    hospitalId: chosenHospitalFor(useAppStore.getState().profile?.id)?.hospitalId ?? '',
    date: '',
    includePrivate: false,
    unreadOnly: false,
    ...initial,
  }))
  const [unread, setUnread] = useState(0)
  const [hospitals, setHospitals] = useState<MyHospital[]>([])
  const list = usePagedList<ReportListItem>(async (page, pageSize) => {
    const answer = await forPerson(
      listPersonalReports({
        page,
        pageSize,
        ...(personId ? { personId } : {}),
        ...(filters.hospitalId ? { hospitalId: filters.hospitalId } : {}),
        ...dateRangeOf(filters.date),
        ...(filters.includePrivate ? { includePrivate: true } : {}),
        ...(filters.unreadOnly ? { unreadOnly: true } : {}),
      }),
    )
    if (page === 1) setUnread(answer.unread)
    return { items: answer.items, total: answer.total }
  })
  const first = useRef(true)
  const { refresh } = list
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    void refresh()
  }, [filters, personId, refresh])

  useEffect(() => {
    void (personId ? listMyHospitals(personId) : listMyHospitals()).then(
      setHospitals,
      () => undefined,
    )
  }, [personId])

  const markAllRead = useCallback(async () => {
    await markAllReportsRead()
    await refresh()
  }, [refresh])

  return {
    list,
    unread,
    hospitals,
    filters,
    setFilters: (change) => setFiltersState((current) => ({ ...current, ...change })),
    markAllRead,
    personId,
  }
}
