import {
  HOSPITAL_REPORT_STATE_LABELS,
  type HospitalReportItem,
  type HospitalReportState,
} from '@contract/scan/hospital-reports'
import { useResource } from '@/hooks/use-resource'
import { listHospitalReports, type HospitalReports } from '@/services/claims'
import { forPerson, useCurrentPerson } from '@/stores/person-store'

export type { HospitalReportItem, HospitalReportState, HospitalReports }

/** The order the page shows the states in: what the person can act on first. */
export const STATE_ORDER: readonly HospitalReportState[] = [
  'filmReady',
  'reported',
  'reporting',
  'examined',
]

export interface StateGroup {
  state: HospitalReportState
  label: string
  items: HospitalReportItem[]
}

/** The items grouped by state, in STATE_ORDER, leaving out empty states. */
export function groupByState(items: readonly HospitalReportItem[]): StateGroup[] {
  return STATE_ORDER.map((state) => ({
    state,
    label: HOSPITAL_REPORT_STATE_LABELS[state],
    items: items.filter((item) => item.state === state),
  })).filter((group) => group.items.length > 0)
}

/** Ids as a room code carries them; anything else is not from a hospital's code. */
function plausible(id: string | undefined): id is string {
  return id !== undefined && /^[\w.-]{1,64}$/.test(id)
}

/**
 * 院内报告: the person's (当前就诊人's) exams at the hospital of a scanned room code and where each
 * report stands. `invalid` when the link names no hospital it could be.
 */
export function useHospitalReports(hospitalId: string | undefined, roomId: string | undefined) {
  const personId = useCurrentPerson()?.personId
  const valid = plausible(hospitalId) && (roomId === undefined || plausible(roomId))
  const key = valid ? `${hospitalId}|${roomId ?? ''}|${personId ?? ''}` : null
  const resource = useResource<HospitalReports>(key, () =>
    forPerson(
      listHospitalReports({
        hospitalId: hospitalId!,
        ...(roomId ? { roomId } : {}),
        ...(personId ? { personId } : {}),
      }),
    ),
  )
  return { resource, invalid: !valid }
}

export type HospitalReportsModel = ReturnType<typeof useHospitalReports>
