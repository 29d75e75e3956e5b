import {
  getShare as getShareEndpoint,
  getSharedExam as getSharedExamEndpoint,
  getSharedGrant as getSharedGrantEndpoint,
  getSharedReport as getSharedReportEndpoint,
  listReceivedGrants as listReceivedGrantsEndpoint,
  openShare as openShareEndpoint,
  GRANT_MESSAGES,
  PICKUP_CODE_LENGTH,
  type GrantRecord,
  type ReceivedGrant,
} from '@contract/main/grants'
import type { OutputOf } from '@contract/endpoint'
import { REASONS } from '@contract/reasons'
import { callEndpoint, type CallOptions } from './api'
import { HttpError, errorReason } from './http'
import type { ExamDetail, ReportDetail } from './records'
import { holdShareBearer, releaseShareBearer } from './share-bearer'

/**
 * The holder's side of authorisations (contract/main/grants.ts): a link's preview and opening, and
 * reads through a grant, by a link visitor (a `yxs_` share-session token) or a signed-in grantee
 * (their own login token).
 *
 * The share session is kept in memory and, on H5, in sessionStorage (a reload of the tab keeps
 * working; closing it forgets). Never in the login store: a visitor is not signed in, and a
 * signed-in person who opens someone's link must not have their own session replaced.
 */

export type { GrantRecord, ReceivedGrant }
export { GRANT_MESSAGES, PICKUP_CODE_LENGTH }
export type SharePreview = OutputOf<typeof getShareEndpoint>

export interface ShareSession {
  accessToken: string
  /** ISO time; the server ends the session then (never after the grant's own expiry). */
  expiresAt: string
}

const STORAGE_PREFIX = 'yxs-share:'
const sessions = new Map<string, ShareSession>()

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage
  } catch {
    // Storage can be disabled (private mode, sandboxed frames): memory alone still works.
    return null
  }
}

function live(session: ShareSession | undefined, now: number): ShareSession | null {
  if (!session) return null
  return Date.parse(session.expiresAt) > now ? session : null
}

/** The link session for this grant, if this tab opened its link and it has not ended. */
export function shareSessionOf(grantId: string, now = Date.now()): ShareSession | null {
  const inMemory = live(sessions.get(grantId), now)
  if (inMemory) return inMemory
  const raw = storage()?.getItem(STORAGE_PREFIX + grantId)
  if (!raw) return null
  try {
    const parsed = JSON.parse(raw) as Partial<ShareSession>
    if (typeof parsed.accessToken !== 'string' || typeof parsed.expiresAt !== 'string') return null
    const session = live({ accessToken: parsed.accessToken, expiresAt: parsed.expiresAt }, now)
    if (session) sessions.set(grantId, session)
    return session
  } catch {
    return null
  }
}

function keepSession(grantId: string, session: ShareSession): void {
  sessions.set(grantId, session)
  try {
    storage()?.setItem(STORAGE_PREFIX + grantId, JSON.stringify(session))
  } catch {
    // Full or disabled storage: the session still lives in memory for this page's life.
  }
}

/** Forgets a grant's link session (it ended: 授权已失效). */
export function forgetShareSession(grantId: string): void {
  sessions.delete(grantId)
  try {
    storage()?.removeItem(STORAGE_PREFIX + grantId)
  } catch {
    // Nothing to do: memory is already clear.
  }
}

/**
 * Call options for a read through `grantId`: the link session's token instead of the login's, and
 * no toast on a refusal (the page says it in full: 授权已失效 or the error with 重试). A 401 keeps
 * the session rules (a grantee whose login expired).
 */
function readOptions(grantId: string, options: CallOptions = {}): CallOptions {
  const session = shareSessionOf(grantId)
  const quiet: CallOptions = {
    ...options,
    hooks: {
      response: (response) =>
        response.statusCode === 200 || response.statusCode === 401 ? undefined : false,
    },
  }
  if (!session) return quiet
  return { ...quiet, header: { ...options.header, Authorization: `Bearer ${session.accessToken}` } }
}

/**
 * While a shared page shows (`holder`: that page), DICOMweb reads (thumbnails, metadata, frames)
 * carry this grant's link token, or the login token for a grantee. `leaveShare` when it hides.
 */
export function enterShare(holder: object, grantId: string): void {
  holdShareBearer(holder, shareSessionOf(grantId)?.accessToken ?? null)
}

export function leaveShare(holder: object): void {
  releaseShareBearer(holder)
}

/** The preview (sharer, expiry, whether a 提取码 is needed): counts no view. */
export function getShare(token: string): Promise<SharePreview> {
  return callEndpoint(getShareEndpoint, { token }, { loading: false })
}

/** 查看: checks the 提取码, counts one opening, and keeps the session for this grant. */
export async function openShare(token: string, pickupCode?: string): Promise<ReceivedGrant> {
  const answer = await callEndpoint(openShareEndpoint, {
    token,
    ...(pickupCode ? { pickupCode } : {}),
  })
  keepSession(answer.grant.id, { accessToken: answer.accessToken, expiresAt: answer.expiresAt })
  return answer.grant
}

export function getSharedGrant(grantId: string, options?: CallOptions): Promise<ReceivedGrant> {
  return callEndpoint(getSharedGrantEndpoint, { grantId }, readOptions(grantId, options))
}

export function getSharedExam(
  grantId: string,
  examId: string,
  options?: CallOptions,
): Promise<ExamDetail> {
  return callEndpoint(getSharedExamEndpoint, { grantId, examId }, readOptions(grantId, options))
}

export function getSharedReport(grantId: string, reportId: string): Promise<ReportDetail> {
  return callEndpoint(getSharedReportEndpoint, { grantId, reportId }, readOptions(grantId))
}

/** 共享给我的: active grants to the signed-in account, newest first. */
export function listReceivedGrants(options: CallOptions = {}): Promise<ReceivedGrant[]> {
  return callEndpoint(listReceivedGrantsEndpoint, {}, options)
}

/**
 * The grant (or this link's session) has ended: revoked, expired, used up (a 403 with the reason
 * grant.ended or grant.link-invalid). The page then shows a full-page 授权已失效 state instead of an
 * error with 重试, which could never succeed.
 */
export function isShareEnded(error: unknown): boolean {
  if (!(error instanceof HttpError) || error.statusCode !== 403) return false
  const reason = errorReason(error)
  return reason === REASONS.grantEnded || reason === REASONS.grantLinkInvalid
}
