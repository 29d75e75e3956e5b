import {
  cancelGrant as cancelGrantEndpoint,
  createGrant as createGrantEndpoint,
  listGrants as listGrantsEndpoint,
  listGrantViews as listGrantViewsEndpoint,
  listRecordViews as listRecordViewsEndpoint,
  GRANT_DURATION_LABELS,
  GRANT_DURATIONS,
  GRANT_MAX_VIEWS_MAX,
  GRANT_MESSAGES,
  GRANT_RECORDS_MAX,
  type Grant,
  type GrantAudience,
  type GrantDuration,
  type GrantRecord,
  type GrantView,
} from '@contract/main/grants'
import type { InputOf, OutputOf } from '@contract/endpoint'
import { callEndpoint, type CallOptions } from './api'

/**
 * The owner's side of authorisations (contract/main/grants.ts): 授权 a study or report to an
 * account or by link, 授权记录, 撤销, and who looked (a grant's view log, 谁看过 on a record).
 */

export type { Grant, GrantAudience, GrantDuration, GrantRecord, GrantView }
export {
  GRANT_DURATION_LABELS,
  GRANT_DURATIONS,
  GRANT_MAX_VIEWS_MAX,
  GRANT_MESSAGES,
  GRANT_RECORDS_MAX,
}

export type NewGrant = InputOf<typeof createGrantEndpoint>
export type CreatedGrant = OutputOf<typeof createGrantEndpoint>
export type GrantLink = NonNullable<CreatedGrant['link']>

// Lists draw their own loading state.
const QUIET: CallOptions = { loading: false }

/** The link (token, 提取码) is in this answer only: the server keeps neither readable. */
export function createGrant(input: NewGrant): Promise<CreatedGrant> {
  return callEndpoint(createGrantEndpoint, input)
}

/** Newest first; `examId` narrows to the grants covering that exam or its report. */
export function listGrants(filter: { examId?: string; personId?: string } = {}): Promise<Grant[]> {
  const input: InputOf<typeof listGrantsEndpoint> = {}
  if (filter.examId) input.examId = filter.examId
  if (filter.personId) input.personId = filter.personId
  return callEndpoint(listGrantsEndpoint, input, QUIET)
}

/** Ends the grant at once; answers it with its new status (已撤销). */
export function cancelGrant(grantId: string): Promise<Grant> {
  return callEndpoint(cancelGrantEndpoint, { grantId })
}

export function listGrantViews(grantId: string): Promise<GrantView[]> {
  return callEndpoint(listGrantViewsEndpoint, { grantId }, QUIET)
}

/** 谁看过: views of the exam and its report through any grant, newest first. */
export function listRecordViews(examId: string): Promise<GrantView[]> {
  return callEndpoint(listRecordViewsEndpoint, { examId }, QUIET)
}
