import type { OutputOf } from '@contract/endpoint'
import {
  type Department,
  type Hospital,
  listDepartments as listDepartmentsEndpoint,
  listHospitals as listHospitalsEndpoint,
  pageHospitals as pageHospitalsEndpoint,
} from '@contract/sso/directory'
import { callEndpoint, type CallOptions } from './api'

/** The sign-on service's hospital directory (contract/sso/directory.ts): hospitals, departments. */

export type { Department, Hospital as DirectoryHospital }
export type DirectoryHospitalPage = OutputOf<typeof pageHospitalsEndpoint>

const QUIET: CallOptions = { loading: false }

/** Every hospital of the directory (the region cascade is built from their provinces and cities). */
export function listDirectoryHospitals(options: CallOptions = QUIET): Promise<Hospital[]> {
  return callEndpoint(listHospitalsEndpoint, {}, options)
}

/** One page of hospitals whose name (or city) contains `keyword`; all of them without one. */
export function pageDirectoryHospitals(
  keyword: string,
  page: number,
  pageSize: number,
): Promise<DirectoryHospitalPage> {
  const trimmed = keyword.trim()
  return callEndpoint(
    pageHospitalsEndpoint,
    { page, pageSize, ...(trimmed ? { keyword: trimmed } : {}) },
    QUIET,
  )
}

export function listHospitalDepartments(hospitalId: string): Promise<Department[]> {
  return callEndpoint(listDepartmentsEndpoint, { hospitalId }, QUIET)
}
