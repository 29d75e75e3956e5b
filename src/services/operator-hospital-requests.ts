import type { z } from 'zod/mini'
import * as requests from '@contract/main/hospital-requests'
import { callEndpoint } from './api'

/*
 * 运营后台 → 医院申请 (contract/main/hospital-requests.ts), H5 only like every operator call: the
 * hospitals applicants asked for, settled once each by resolving with a directory hospital
 * (found with services/hospital-directory pageDirectoryHospitals) or declining with a reason.
 */

export type OperatorHospitalRequest = z.infer<typeof requests.OperatorHospitalRequestSchema>
export type HospitalRequestStatus = requests.HospitalRequestStatus

const quiet = { loading: false } as const

export const operatorHospitalRequestsApi = {
  list: (status: HospitalRequestStatus, page: number, pageSize: number) =>
    callEndpoint(requests.operatorListHospitalRequests, { status, page, pageSize }, quiet),
  resolve: (requestId: string, hospitalId: string) =>
    callEndpoint(requests.operatorResolveHospitalRequest, { requestId, hospitalId }),
  decline: (requestId: string, reason: string) =>
    callEndpoint(requests.operatorDeclineHospitalRequest, { requestId, reason }),
}
