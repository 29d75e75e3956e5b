import { useCallback, useEffect, useRef, useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { useResource } from '@/hooks/use-resource'
import { showToast } from '@/platform/ui'
import {
  type ConsultPeople,
  type ConsultService,
  listConsultPeople,
} from '@/services/consultations'
import type { ConsultRecordParams } from '@/services/navigate'
import { applyProblems, type ApplyField, firstProblem, type Problems } from '../draft'
import type { ChosenRecord, DraftPicture } from '../draft-store'
import { type DraftHandle, useConsultDraft } from './use-consult-draft'
import { type PictureUpload, usePictureUpload } from './use-picture-upload'

export type ConsultPersonItem = ConsultPeople[number]

export interface ApplicationModel extends DraftHandle {
  people:
    | { status: 'loading' }
    | { status: 'error'; message: string; retry: () => void }
    | { status: 'ready'; items: ConsultPeople }
  /** The chosen 就诊人 as the server lists them (null while loading or none chosen). */
  person: ConsultPersonItem | null
  choosePerson: (person: ConsultPersonItem) => void
  /** Shown once 下一步 was tapped (not while the person is still typing). */
  problems: Problems<ApplyField>
  pictures: PictureUpload
  addOfflinePictures: () => Promise<void>
  removeOfflinePicture: (id: string) => void
  /** Checks the page; true when the person may go on to 检查信息. */
  next: () => boolean
}

export function isSelf(person: ConsultPersonItem, index: number): boolean {
  return person.relationLabel === '本人' || index === 0
}

export function personLabel(person: ConsultPersonItem): string {
  return `${person.relationLabel} ${person.nameMasked}`
}

/**
 * The records handed in from 影像详情 (the exam, and its report) / 报告详情 (the report), as the draft
 * keeps them until 检查信息 lists them with their titles.
 */
function seededRecords(seed: ConsultRecordParams): ChosenRecord[] {
  const records: ChosenRecord[] = []
  if (seed.examId) {
    records.push({
      kind: 'exam',
      id: seed.examId,
      examId: seed.examId,
      title: '已选择的影像检查',
      detail: '',
      private: false,
    })
  }
  if (seed.reportId) {
    records.push({
      kind: 'report',
      id: seed.reportId,
      examId: seed.examId ?? '',
      title: '已选择的报告',
      detail: '',
      private: false,
    })
  }
  return records
}

/**
 * 会诊申请: for whom (本人 or a managed family member; a person without a bound ID card cannot be
 * chosen for a consultation), what is wrong, the questions, seen offline (with photos). Everything
 * lives in the draft, so leaving and coming back keeps it.
 */
export function useApplication(
  expertId: string,
  service: ConsultService,
  seed: ConsultRecordParams,
): ApplicationModel {
  const handle = useConsultDraft(expertId, service)
  const { draft, update } = handle
  const [tried, setTried] = useState(false)
  const pictures = usePictureUpload()
  const people = useResource('people', () => listConsultPeople())
  // Back from 身份证绑定 or 亲情卡: the ID card (or the member) may be there now.
  const { reload } = people
  const shown = useRef(false)
  useDidShow(() => {
    if (shown.current) void reload()
    shown.current = true
  })

  // The records from 影像详情 / 报告详情, applied once (removing one on 检查信息 sticks).
  const seeds = seededRecords(seed)
  const seedKey = seeds.length > 0 ? seeds.map((one) => `${one.kind}:${one.id}`).join(',') : null
  useEffect(() => {
    if (seeds.length === 0 || seedKey === draft.seeded) return
    update((current) => {
      const samePerson = (seed.personId ?? null) === (current.personSelf ? null : current.personId)
      const records = samePerson ? current.records : []
      const added = seeds.filter(
        (one) => !records.some((record) => record.kind === one.kind && record.id === one.id),
      )
      return {
        seeded: seedKey,
        ...(samePerson
          ? {}
          : { personId: seed.personId ?? null, personSelf: !seed.personId, personLabel: '' }),
        records: [...records, ...added],
      }
    })
    // The seed is the page's parameters: read once per key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seedKey])

  const items = people.status === 'ready' ? people.data.items : null
  const chosenIndex =
    items?.findIndex((item, index) =>
      draft.personId === null
        ? false
        : draft.personSelf
          ? isSelf(item, index)
          : item.personId === draft.personId,
    ) ?? -1
  const person = items && chosenIndex >= 0 ? items[chosenIndex] : null

  // Start at 本人; a member no longer managed (or gone) goes back to 本人 too.
  useEffect(() => {
    if (!items || items.length === 0 || person) return
    const self = items.find(isSelf) ?? items[0]
    const wasMember = draft.personId !== null && !draft.personSelf
    update({
      personId: self.personId,
      personSelf: true,
      personLabel: personLabel(self),
      ...(wasMember ? { records: [] } : {}),
    })
  }, [items, person, draft.personId, draft.personSelf, update])

  // Keep the label the summary shows in step with the list.
  useEffect(() => {
    if (person && draft.personLabel !== personLabel(person)) {
      update({ personLabel: personLabel(person) })
    }
  }, [person, draft.personLabel, update])

  const choosePerson = useCallback(
    (next: ConsultPersonItem) => {
      if (!items) return
      const self = isSelf(next, items.indexOf(next))
      update((current) => {
        const same = self ? current.personSelf : current.personId === next.personId
        if (same) return {}
        // Records are a person's own: another person's cannot ride along.
        if (current.records.length > 0) showToast('已更换就诊人，请重新选择检查和报告')
        return {
          personId: next.personId,
          personSelf: self,
          personLabel: personLabel(next),
          records: [],
        }
      })
    },
    [items, update],
  )

  const problems = applyProblems(draft, person ? person.idCardBound : null)
  const next = useCallback(() => {
    setTried(true)
    const first = firstProblem(problems)
    if (first) {
      showToast(first)
      return false
    }
    if (pictures.uploading > 0) {
      showToast('图片上传中，请稍候')
      return false
    }
    return true
  }, [problems, pictures.uploading])

  const addOfflinePictures = useCallback(
    () =>
      pictures.add(draft.offlinePictures.length, (picture: DraftPicture) =>
        update((current) => ({ offlinePictures: [...current.offlinePictures, picture] })),
      ),
    [pictures, draft.offlinePictures.length, update],
  )
  const removeOfflinePicture = useCallback(
    (id: string) =>
      update((current) => ({
        offlinePictures: current.offlinePictures.filter((picture) => picture.id !== id),
      })),
    [update],
  )

  return {
    ...handle,
    people:
      people.status === 'ready'
        ? { status: 'ready', items: people.data.items }
        : people.status === 'error'
          ? { status: 'error', message: people.message, retry: () => void people.reload() }
          : { status: 'loading' },
    person,
    choosePerson,
    problems: tried ? problems : {},
    pictures,
    addOfflinePictures,
    removeOfflinePicture,
    next,
  }
}
