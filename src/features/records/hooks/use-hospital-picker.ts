import { useEffect, useMemo, useRef, useState } from 'react'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { getCurrentLocation } from '@/platform/location'
import {
  emitHospitalPicked,
  getAreaData,
  getDefaultArea,
  listImageHospitals,
  locateArea,
  type AreaNode,
  type AreaRef,
  type ImageHospital,
} from '@/services/records'
import { debounce } from '@/utils/debounce'

/** A chosen region: its code (province, city or district) and how to say it (四川省 成都市). */
export interface PickedRegion {
  code: string
  label: string
}

export type LocateState =
  | { status: 'idle' }
  | { status: 'locating' }
  | { status: 'done'; message: string }
  | { status: 'failed'; message: string }

export interface HospitalPicker {
  hospitals: PagedList<ImageHospital>
  /** null: the whole country. */
  region: PickedRegion | null
  setRegion: (region: PickedRegion | null) => void
  /** Provinces → cities → districts with hospitals; null until loaded, [] when it failed. */
  areas: AreaNode[] | null
  keyword: string
  setKeyword: (keyword: string) => void
  aiOnly: boolean
  setAiOnly: (aiOnly: boolean) => void
  locate: () => void
  located: LocateState
}

/** 影像查询 opened the picker (`pick=1`): the chosen hospital goes back to it (onHospitalPicked). */
export function handHospitalBack(hospital: ImageHospital): void {
  emitHospitalPicked(hospital)
}

export function regionOfArea(area: AreaRef): PickedRegion {
  const names = [area.provinceName, area.cityName, area.districtName].filter(
    (name, index, all): name is string => Boolean(name) && all.indexOf(name) === index,
  )
  return { code: area.districtCode ?? area.cityCode, label: names.join(' ') }
}

/**
 * 选择地区或医院: hospitals by region (default: where my newest exam was, or where the phone is when
 * the person asks), searched by name as they type, optionally only those with AI reporting.
 */
export function useHospitalPicker(signedIn: boolean): HospitalPicker {
  const [region, setRegion] = useState<PickedRegion | null>(null)
  const [areas, setAreas] = useState<AreaNode[] | null>(null)
  const [typed, setTyped] = useState('')
  const [keyword, setSearchKeyword] = useState('')
  const [aiOnly, setAiOnly] = useState(false)
  const [located, setLocated] = useState<LocateState>({ status: 'idle' })
  const touched = useRef(false)

  const hospitals = usePagedList<ImageHospital>(async (page, pageSize) => {
    const answer = await listImageHospitals({
      page,
      pageSize,
      ...(region ? { regionCode: region.code } : {}),
      ...(keyword ? { keyword } : {}),
      ...(aiOnly ? { aiOnly: true } : {}),
    })
    return { items: answer.items, total: answer.total }
  })
  const first = useRef(true)
  const { refresh } = hospitals
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    void refresh()
  }, [region, keyword, aiOnly, refresh])

  useEffect(() => {
    getAreaData().then(setAreas, () => setAreas([]))
    if (!signedIn) return
    getDefaultArea().then(
      (area) => {
        // The person may have chosen or located before the default arrived: theirs wins.
        if (area && !touched.current) setRegion(regionOfArea(area))
      },
      () => undefined,
    )
  }, [signedIn])

  const search = useMemo(() => debounce((value: string) => setSearchKeyword(value.trim()), 500), [])
  useEffect(() => () => search.cancel(), [search])

  const locate = () => {
    if (located.status === 'locating') return
    touched.current = true
    setLocated({ status: 'locating' })
    void (async () => {
      const position = await getCurrentLocation()
      if (position.status !== 'ok') {
        setLocated({ status: 'failed', message: position.message })
        return
      }
      try {
        const answer = await locateArea(position.latitude, position.longitude)
        if (!answer.area) {
          setLocated({ status: 'failed', message: '附近暂无合作医院，请手动选择地区' })
          return
        }
        const picked = regionOfArea(answer.area)
        setRegion(picked)
        const far = answer.distanceKm !== null && answer.distanceKm > 50
        setLocated({
          status: 'done',
          message: far
            ? `离您最近的合作医院在${picked.label}（约 ${Math.round(answer.distanceKm ?? 0)} 公里）`
            : `已定位到${picked.label}`,
        })
      } catch {
        setLocated({ status: 'failed', message: '定位失败，请手动选择地区' })
      }
    })()
  }

  return {
    hospitals,
    region,
    setRegion: (next) => {
      touched.current = true
      setLocated({ status: 'idle' })
      setRegion(next)
    },
    areas,
    keyword: typed,
    setKeyword: (value) => {
      setTyped(value)
      search(value)
    },
    aiOnly,
    setAiOnly,
    locate,
    located,
  }
}
