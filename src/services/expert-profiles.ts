import type { InputOf, OutputOf } from '@contract/endpoint'
import {
  CONSULT_SERVICES,
  type ConsultService,
  DAILY_LIMIT_MAX,
  DAILY_LIMIT_MIN,
  EXPERT_PROFILE_MESSAGES,
  EXPERT_SERVICE_RULES,
  type ExpertCard,
  type ExpertProfile,
  type ExpertService,
  type ExpertStats,
  getExpertFilters as getExpertFiltersEndpoint,
  getExpertProfile as getExpertProfileEndpoint,
  getMyExpertSettings as getMyExpertSettingsEndpoint,
  listExperts as listExpertsEndpoint,
  type MyExpertSettings,
  updateMyExpertProfile as updateMyExpertProfileEndpoint,
  updateMyExpertServices as updateMyExpertServicesEndpoint,
} from '@contract/main/expert-profiles'
import {
  EXPERT_APPLICATION_STATUS_LABELS,
  EXPERT_MESSAGES,
  EXPERT_TITLE_LABELS,
  EXPERT_TITLES,
  type ExpertTitle,
  INTRODUCTION_MAX,
  SPECIALITIES_MAX,
  SPECIALITY_OPTIONS,
} from '@contract/main/experts'
import { callEndpoint, type CallOptions } from './api'

/**
 * 找专家, 专家主页 and the expert's own 服务设置 (contract/main/expert-profiles.ts). Prices are
 * integer fen in and out; the screens turn them into yuan (utils/money.ts).
 */

export type {
  ConsultService,
  ExpertCard,
  ExpertProfile,
  ExpertService,
  ExpertStats,
  ExpertTitle,
  MyExpertSettings,
}
export {
  CONSULT_SERVICES,
  EXPERT_APPLICATION_STATUS_LABELS,
  DAILY_LIMIT_MAX,
  DAILY_LIMIT_MIN,
  EXPERT_MESSAGES,
  EXPERT_PROFILE_MESSAGES,
  EXPERT_SERVICE_RULES,
  EXPERT_TITLE_LABELS,
  EXPERT_TITLES,
  INTRODUCTION_MAX,
  SPECIALITIES_MAX,
  SPECIALITY_OPTIONS,
}

export type ExpertQuery = InputOf<typeof listExpertsEndpoint>
export type ExpertPage = OutputOf<typeof listExpertsEndpoint>
export type ExpertFilters = OutputOf<typeof getExpertFiltersEndpoint>
export type ServicesInput = InputOf<typeof updateMyExpertServicesEndpoint>
export type ProfileInput = InputOf<typeof updateMyExpertProfileEndpoint>

// Lists and pages draw their own loading state; forms show their own busy button.
const QUIET: CallOptions = { loading: false }

export function listExperts(query: ExpertQuery): Promise<ExpertPage> {
  return callEndpoint(listExpertsEndpoint, query, QUIET)
}

/** A convenience: without it the directory still lists everyone, so failures stay quiet. */
export function getExpertFilters(): Promise<ExpertFilters> {
  return callEndpoint(getExpertFiltersEndpoint, {}, { loading: false, quietOffline: true })
}

export function getExpertProfile(expertId: string): Promise<ExpertProfile> {
  return callEndpoint(getExpertProfileEndpoint, { expertId }, QUIET)
}

export function getMyExpertSettings(): Promise<MyExpertSettings> {
  return callEndpoint(getMyExpertSettingsEndpoint, {}, QUIET)
}

/** 个人简介 and 擅长方向: in effect at once, no review. */
export function updateMyExpertProfile(input: ProfileInput): Promise<MyExpertSettings> {
  return callEndpoint(updateMyExpertProfileEndpoint, input, QUIET)
}

export function updateMyExpertServices(input: ServicesInput): Promise<MyExpertSettings> {
  return callEndpoint(updateMyExpertServicesEndpoint, input, QUIET)
}
