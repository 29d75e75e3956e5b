import { useEffect, useMemo, useRef, useState } from 'react'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { useResource } from '@/hooks/use-resource'
import { emitExpertHospitalPicked, type ExpertHospitalChoice } from '@/services/experts'
import { isCancelled } from '@/services/http'
import {
  type DirectoryHospital,
  listDirectoryHospitals,
  pageDirectoryHospitals,
} from '@/services/hospital-directory'
import { debounce } from '@/utils/debounce'

/** A province, or one city of it. */
export interface Region {
  province: string
  city: string | null
}

export interface ProvinceNode {
  name: string
  count: number
  cities: { name: string; count: number }[]
}

export interface SelectHospital {
  /** Provinces → cities of the directory; null while loading, [] when it failed. */
  regions: ProvinceNode[] | null
  region: Region | null
  setRegion: (region: Region | null) => void
  keyword: string
  setKeyword: (keyword: string) => void
  /** No region chosen: the directory page by page (searched by name as the person types). */
  paged: PagedList<DirectoryHospital>
  /** A region chosen: its hospitals (matching the keyword), from the directory already loaded. */
  inRegion: DirectoryHospital[] | null
}

/** The form that opened 选择医院 listens for the choice (onExpertHospitalPicked). */
export function handHospitalBack(choice: ExpertHospitalChoice): void {
  emitExpertHospitalPicked(choice)
}

/** Provinces with their cities, in the directory's own order, each with its hospital count. */
export function regionsOf(hospitals: readonly DirectoryHospital[]): ProvinceNode[] {
  const provinces = new Map<string, Map<string, number>>()
  for (const hospital of hospitals) {
    const cities = provinces.get(hospital.province) ?? new Map<string, number>()
    cities.set(hospital.city, (cities.get(hospital.city) ?? 0) + 1)
    provinces.set(hospital.province, cities)
  }
  return [...provinces].map(([name, cities]) => ({
    name,
    count: [...cities.values()].reduce((sum, count) => sum + count, 0),
    cities: [...cities].map(([city, count]) => ({ name: city, count })),
  }))
}

export function regionLabel(region: Region | null): string {
  if (!region) return '全国'
  // Municipalities are their own city (北京市 北京市): say it once.
  return region.city && region.city !== region.province
    ? `${region.province} ${region.city}`
    : region.province
}

/**
 * 选择医院 for certification: the whole directory once, for the region cascade (provinces and
 * cities come from the hospitals themselves), and the server's paged search while no region is
 * chosen. A region narrows the list already loaded, so choosing one costs no request.
 */
export function useSelectHospital(): SelectHospital {
  const all = useResource('directory', () => listDirectoryHospitals(), {
    ignoreError: isCancelled,
  })
  const [region, setRegion] = useState<Region | null>(null)
  const [typed, setTyped] = useState('')
  const [keyword, setSearchKeyword] = useState('')

  const paged = usePagedList<DirectoryHospital>(async (page, pageSize) => {
    const answer = await pageDirectoryHospitals(keyword, page, pageSize)
    return { items: answer.items, total: answer.total }
  })
  const first = useRef(true)
  const { refresh } = paged
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    void refresh()
  }, [keyword, refresh])

  const search = useMemo(() => debounce((value: string) => setSearchKeyword(value.trim()), 500), [])
  useEffect(() => () => search.cancel(), [search])

  const hospitals = all.status === 'ready' ? all.data : null
  const regions = useMemo(
    () => (hospitals ? regionsOf(hospitals) : all.status === 'error' ? [] : null),
    [hospitals, all.status],
  )
  const inRegion = useMemo(() => {
    if (!region || !hospitals) return null
    const word = typed.trim()
    return hospitals.filter(
      (hospital) =>
        hospital.province === region.province &&
        (region.city === null || hospital.city === region.city) &&
        (word === '' || hospital.name.includes(word)),
    )
  }, [region, hospitals, typed])

  return {
    regions,
    region,
    setRegion,
    keyword: typed,
    setKeyword: (value) => {
      setTyped(value)
      search(value)
    },
    paged,
    inRegion,
  }
}
