import type { z } from 'zod/mini'
import * as profiles from '@contract/main/expert-profiles'
import * as experts from '@contract/main/experts'
import { callEndpoint } from './api'
import { HttpError } from './http'

/*
 * 运营后台's expert review (contract/main/experts.ts) and suspension (contract/main/expert-profiles.ts),
 * H5 only like every operator call. Certificate photos are private: fetched with the bearer token
 * (services/records downloadAuthorisedImage, through useAuthorisedImage), never by a plain <img>.
 */

export type OperatorExpertApplication = z.infer<typeof experts.OperatorExpertApplicationSchema>
export type ExpertApplicationStatus = experts.ExpertApplicationStatus
export type OperatorExpert = z.infer<typeof profiles.OperatorExpertSchema>
export type SuspendedFilter = 'yes' | 'no'

const quiet = { loading: false } as const

export const operatorExpertsApi = {
  applications: (status: ExpertApplicationStatus, page: number, pageSize: number) =>
    callEndpoint(experts.operatorListExpertApplications, { status, page, pageSize }, quiet),
  application: (applicationId: string) =>
    callEndpoint(experts.operatorGetExpertApplication, { applicationId }, quiet),
  approve: (applicationId: string) =>
    callEndpoint(experts.operatorApproveExpert, { applicationId }),
  reject: (applicationId: string, reason: string) =>
    callEndpoint(experts.operatorRejectExpert, { applicationId, reason }),
  experts: (
    filter: { keyword?: string; suspended?: SuspendedFilter },
    page: number,
    pageSize: number,
  ) => callEndpoint(profiles.operatorListExperts, { ...filter, page, pageSize }, quiet),
  suspend: (expertId: string, reason: string) =>
    callEndpoint(profiles.operatorSuspendExpert, { expertId, reason }),
  resume: (expertId: string) => callEndpoint(profiles.operatorResumeExpert, { expertId }),
}

/** Another operator decided first (or the applicant withdrew): the server answers 409. */
export function isConflict(error: unknown): boolean {
  return error instanceof HttpError && error.statusCode === 409
}
