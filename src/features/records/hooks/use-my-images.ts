import { useCallback, useEffect, useRef, useState } from 'react'
import { UPLOADS_GROUP } from '@contract/main/records'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { listMyHospitals, listMyImages, type ImageGroup, type MyHospital } from '@/services/records'

export { UPLOADS_GROUP }

export interface MyImages {
  /** The groups as one list (all come in one answer), for pull-to-refresh and the list states. */
  groups: PagedList<ImageGroup>
  /** Hospitals the 选择 sheet offers (those with an exam of mine); null until loaded. */
  hospitals: MyHospital[] | null
  /** Chosen group ids (hospital ids and UPLOADS_GROUP); empty = all. */
  selected: readonly string[]
  select: (ids: readonly string[]) => void
}

/** 我的影像: the person's exams grouped by hospital, optionally only some hospitals (选择). */
export function useMyImages(): MyImages {
  const [selected, setSelected] = useState<readonly string[]>([])
  const [hospitals, setHospitals] = useState<MyHospital[] | null>(null)
  const groups = usePagedList<ImageGroup>(async () => {
    const answer = await listMyImages(selected)
    return { items: answer, total: answer.length }
  })
  const first = useRef(true)
  const { refresh } = groups
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    void refresh()
  }, [selected, refresh])

  const loadHospitals = useCallback(() => {
    listMyHospitals().then(setHospitals, () => setHospitals((current) => current ?? []))
  }, [])
  useEffect(() => {
    loadHospitals()
  }, [loadHospitals])

  return { groups, hospitals, selected, select: setSelected }
}
