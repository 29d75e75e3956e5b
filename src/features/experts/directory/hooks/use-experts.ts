import { usePagedList, type PagedList } from '@/components/refresh-list'
import { useResource } from '@/hooks/use-resource'
import {
  type ConsultService,
  type ExpertCard,
  type ExpertFilters,
  type ExpertTitle,
  getExpertFilters,
  listExperts,
} from '@/services/expert-profiles'

/** What 找专家 is filtered by; an absent key is 不限. */
export interface ExpertFilter {
  department?: string
  province?: string
  /** Only with its province. */
  city?: string
  title?: ExpertTitle
  service?: ConsultService
}

/** One string per filter, to key the list by: a new filter is a new list from page 1. */
export function filterKey(filter: ExpertFilter): string {
  return [filter.department, filter.province, filter.city, filter.title, filter.service]
    .map((part) => part ?? '')
    .join('|')
}

export function isFiltered(filter: ExpertFilter): boolean {
  return filterKey(filter) !== '||||'
}

/** The experts for one filter, by the spec's pages; the view mounts one per filter (keyed). */
export function useExpertList(filter: ExpertFilter): PagedList<ExpertCard> {
  return usePagedList<ExpertCard>(async (page, pageSize) => {
    const answer = await listExperts({ page, pageSize, ...filter })
    return { items: answer.items, total: answer.total }
  })
}

const NO_CHOICES: ExpertFilters = { departments: [], regions: [] }

/**
 * The departments and regions some public expert has. A failure is not shown: 职称 and 服务 still
 * filter, and the list still lists everyone.
 */
export function useExpertFilterChoices(): ExpertFilters {
  const choices = useResource('filters', () => getExpertFilters())
  return choices.status === 'ready' ? choices.data : NO_CHOICES
}
