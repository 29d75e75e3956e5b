import type { ConsultService, ExpertCard } from '@contract/main/expert-profiles'
import type { ExpertTitle } from '@contract/main/experts'
import type { DB } from '../../db'
import { type Page, page, type PageQuery } from '../../db/paging'
import {
  CARD_COLUMNS,
  type ExpertQuery,
  expertMatches,
  publicExperts,
  SERVICE_COLUMNS,
  TITLE_RANK,
  toExpertCard,
} from './profiles'

/*
 * 找专家 (contract listExperts, getExpertFilters): the public experts only (profiles.ts
 * publicExperts), filtered, in the contract's order: accepting first, then by title (主任医师
 * first), then the most recently certified; the user id last so pages never overlap or skip.
 */

export interface DirectoryFilter {
  department?: string | undefined
  province?: string | undefined
  city?: string | undefined
  title?: ExpertTitle | undefined
  service?: ConsultService | undefined
  keyword?: string | undefined
}

export function filtered(db: DB, base: ExpertQuery, filter: DirectoryFilter): ExpertQuery {
  let query = base
  if (filter.department) query = query.where('experts.department', '=', filter.department)
  if (filter.province) query = query.where('hospitals.province', '=', filter.province)
  if (filter.city) query = query.where('hospitals.city', '=', filter.city)
  if (filter.title) query = query.where('experts.title', '=', filter.title)
  if (filter.service) {
    query = query.where(`experts.${SERVICE_COLUMNS[filter.service].enabled}`, '=', 1)
  }
  const keyword = filter.keyword?.trim()
  if (keyword) query = query.where(expertMatches(db, keyword))
  return query
}

export async function listExperts(
  db: DB,
  input: PageQuery & DirectoryFilter,
): Promise<Page<ExpertCard>> {
  const matching = filtered(db, publicExperts(db), input)
  const found = await page(
    input,
    matching
      .select(CARD_COLUMNS)
      .orderBy('experts.accepting', 'desc')
      .orderBy(TITLE_RANK)
      .orderBy('experts.certified_at', 'desc')
      .orderBy('experts.user_id'),
    matching,
  )
  return { ...found, items: found.items.map(toExpertCard) }
}

/** Only the departments and places some public expert has: no choice leads to an empty list. */
export async function getExpertFilters(db: DB): Promise<{
  departments: string[]
  regions: { province: string; cities: string[] }[]
}> {
  const [departments, places] = await Promise.all([
    publicExperts(db)
      .select('experts.department')
      .distinct()
      .orderBy('experts.department')
      .execute(),
    publicExperts(db)
      .select(['hospitals.province', 'hospitals.city'])
      .distinct()
      .orderBy('hospitals.province')
      .orderBy('hospitals.city')
      .execute(),
  ])
  const regions: { province: string; cities: string[] }[] = []
  for (const place of places) {
    const last = regions.at(-1)
    if (last?.province === place.province) last.cities.push(place.city)
    else regions.push({ province: place.province, cities: [place.city] })
  }
  return { departments: departments.map((row) => row.department), regions }
}
