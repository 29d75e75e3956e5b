import { useCallback, useEffect, useRef, useState } from 'react'
import { UPLOADS_GROUP } from '@contract/main/records'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { listMyHospitals, listMyImages, type ImageGroup, type MyHospital } from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { chosenHospitalFor } from '@/stores/hospital-store'
import { forPerson, useCurrentPerson } from '@/stores/person-store'

export { UPLOADS_GROUP }

const NONE: readonly string[] = []

export interface MyImages {
  /** The groups as one list (all come in one answer), for pull-to-refresh and the list states. */
  groups: PagedList<ImageGroup>
  /** Hospitals the 选择 sheet offers (those with an exam of mine); null until loaded. */
  hospitals: MyHospital[] | null
  /** Chosen group ids (hospital ids and UPLOADS_GROUP); empty = all. */
  selected: readonly string[]
  select: (ids: readonly string[]) => void
}

/**
 * 我的影像: the person's exams grouped by hospital, optionally only some hospitals (选择). The person
 * is 当前就诊人 (本人 or a family member, features/family).
 */
export function useMyImages(): MyImages {
  const personId = useCurrentPerson()?.personId
  // A choice of hospitals belongs to the person it was made for: another person starts at 全部.
  // 数据切换中心's hospital (remembered) is where the list starts; 选择 changes it for this visit.
  const [selection, setSelection] = useState<{ personId?: string; ids: readonly string[] }>(() => {
    const chosen = chosenHospitalFor(useAppStore.getState().profile?.id)
    return { personId, ids: chosen ? [chosen.hospitalId] : NONE }
  })
  const selected = selection.personId === personId ? selection.ids : NONE
  const [hospitals, setHospitals] = useState<MyHospital[] | null>(null)
  const groups = usePagedList<ImageGroup>(async () => {
    // 本人 is asked as before (no personId at all), a member by their personId.
    const answer = await forPerson(
      personId ? listMyImages(selected, personId) : listMyImages(selected),
    )
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
  }, [selected, personId, refresh])

  const loadHospitals = useCallback(() => {
    const load = personId ? listMyHospitals(personId) : listMyHospitals()
    load.then(setHospitals, () => setHospitals((current) => current ?? []))
  }, [personId])
  useEffect(() => {
    loadHospitals()
  }, [loadHospitals])

  return { groups, hospitals, selected, select: (ids) => setSelection({ personId, ids }) }
}
