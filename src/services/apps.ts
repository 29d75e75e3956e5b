import type { OutputOf } from '@contract/endpoint'
import {
  type AppFeature,
  getPoints as getPointsEndpoint,
  listFeatures as listFeaturesEndpoint,
} from '@contract/main/apps'
import { callEndpoint } from './api'

/** 应用中心 (contract/main/apps.ts): the features the server has on, and the person's points. */

export type { AppFeature }
export type PointsPage = OutputOf<typeof getPointsEndpoint>

export function listFeatures(): Promise<AppFeature[]> {
  return callEndpoint(listFeaturesEndpoint, {}, { loading: false })
}

export function getPoints(page: number, pageSize: number): Promise<PointsPage> {
  return callEndpoint(getPointsEndpoint, { page, pageSize }, { loading: false })
}
