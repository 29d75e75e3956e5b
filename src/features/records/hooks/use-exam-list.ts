import { useEffect, useRef, useState } from 'react'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { listExams, type ExamSummary } from '@/services/records'
import { dateRangeOf, type DatePreset } from '../filters'

export interface ExamFilters {
  date: DatePreset
  /** '' = every modality. */
  modality: string
}

export interface ExamList {
  list: PagedList<ExamSummary>
  filters: ExamFilters
  setFilters: (change: Partial<ExamFilters>) => void
}

/** 院内查询: the exams of one hospital (or of my uploads), newest first, filtered by date and type. */
export function useExamList(hospitalId: string | undefined): ExamList {
  const [filters, setFiltersState] = useState<ExamFilters>({ date: '', modality: '' })
  const list = usePagedList<ExamSummary>(async (page, pageSize) => {
    const answer = await listExams({
      page,
      pageSize,
      ...(hospitalId ? { hospitalId } : {}),
      ...(filters.modality ? { modality: filters.modality } : {}),
      ...dateRangeOf(filters.date),
    })
    return { items: answer.items, total: answer.total }
  })
  // The list loads itself once on mount; later filter changes start it again from page 1.
  const first = useRef(true)
  const { refresh } = list
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    void refresh()
  }, [filters, hospitalId, refresh])

  return {
    list,
    filters,
    setFilters: (change) => setFiltersState((current) => ({ ...current, ...change })),
  }
}
